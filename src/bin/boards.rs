//! `coglab-boards [DATA_DIR] [OUT_DIR]`: writes the leaderboard's static boards
//! (`OUT_DIR/<board>.html`, default `public/boards`) from the bundled data (`DATA_DIR`,
//! default `public/data`), as the app's tables show them (issue 42, defects 3 and 11). The
//! site's build inlines them into the leaderboard's page. Writes only those six files.

use coglab::pages::leaderboard::static_html::{static_boards, BundledData, DATA_FILES};
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let data = PathBuf::from(args.next().unwrap_or_else(|| "public/data".into()));
    let out = PathBuf::from(args.next().unwrap_or_else(|| "public/boards".into()));
    let read = |name: &str| {
        let path = data.join(name);
        std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))
    };
    let run = || -> Result<usize, String> {
        let texts: Vec<String> = DATA_FILES
            .iter()
            .map(|f| read(f))
            .collect::<Result<_, _>>()?;
        let boards = static_boards(&BundledData {
            mmiq: &texts[0],
            kiva: &texts[1],
            kiva_adults: &texts[2],
            mmopera: &texts[3],
            gold: &texts[4],
        })?;
        std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
        for b in &boards {
            let path = out.join(format!("{}.html", b.key));
            std::fs::write(&path, &b.html).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        Ok(boards.len())
    };
    match run() {
        Ok(n) => {
            println!("{n} boards written to {}", out.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("coglab-boards: {e}");
            ExitCode::FAILURE
        }
    }
}
