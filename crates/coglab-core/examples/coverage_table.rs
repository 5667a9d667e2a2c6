//! The coverage table of `docs/coverage.md` (issue 40, item 4): every interval the app shows,
//! at n in {10, 20, 30, 50, 100, 200, 300} and p in {0.02, ..., 0.98}
//! ([`coglab_core::ranks::interval_coverage`]). Prints markdown: one table per interval (rows
//! n, columns p, coverage in %), each with its average over the grid.
//!
//! Run: `cargo run -p coglab-core --release --example coverage_table [REPS] [BOARD_REPS]
//! [SEED]` (defaults 4000, 200, 40).

use coglab_core::ranks::interval_coverage::{coverage_table, TABLE_N, TABLE_P};

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|s| s.parse().ok())
        .collect();
    let reps = args.first().copied().unwrap_or(4000) as usize;
    let board_reps = args.get(1).copied().unwrap_or(200) as usize;
    let seed = args.get(2).copied().unwrap_or(40);
    let t0 = std::time::Instant::now();
    let rows = coverage_table(&TABLE_N, &TABLE_P, reps, board_reps, seed);
    let mut names: Vec<&str> = Vec::new();
    for r in &rows {
        if !names.contains(&r.interval.as_str()) {
            names.push(&r.interval);
        }
    }
    println!(
        "Seed {seed}; {reps} simulated boards per cell for the clustered intervals, {board_reps} \
         for the rank board's (Wilson exact); {:.0} s.\n",
        t0.elapsed().as_secs_f64()
    );
    for name in names {
        let mine: Vec<_> = rows.iter().filter(|r| r.interval == name).collect();
        let all: Vec<f64> = mine
            .iter()
            .flat_map(|r| r.coverage.iter().copied())
            .collect();
        let avg = 100.0 * all.iter().sum::<f64>() / all.len() as f64;
        let min = 100.0 * all.iter().copied().fold(f64::INFINITY, f64::min);
        println!("### {name}: average {avg:.1}%, lowest {min:.1}%\n");
        print!("| n \\ p |");
        for p in TABLE_P {
            print!(" {p} |");
        }
        println!(" mean |");
        print!("|---|");
        for _ in TABLE_P {
            print!("---|");
        }
        println!("---|");
        for r in mine {
            print!("| {} |", r.n);
            for c in &r.coverage {
                print!(" {:.1} |", 100.0 * c);
            }
            let m = 100.0 * r.coverage.iter().sum::<f64>() / r.coverage.len() as f64;
            println!(" {m:.1} |");
        }
        println!();
    }
}
