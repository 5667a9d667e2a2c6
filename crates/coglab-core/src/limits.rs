//! Upper bounds on the counts a user may ask for (resamples, bootstrap draws, iterations).
//!
//! The CLI checks them when it reads its options, and the core functions that take these
//! counts return an error above them, so the web app (which calls the core directly) refuses
//! the same values with the same message. Without a bound, `--resamples 18446744073709551615`
//! overflowed a capacity computation and `--bootstrap 1000000000000` tried to allocate 8 TB
//! (issue 27, defect 2).

/// Most resamples for a paired bootstrap or a paired permutation test (`compare mmiq
/// --resamples`, `agree --resamples`, the leaderboard's paired comparisons). One million takes
/// a few seconds on the largest real inputs (2,710 MM-IQ items).
pub const MAX_RESAMPLES: usize = 1_000_000;

/// Most bootstrap values a leaderboard board ([`crate::ranks::build_board`], `coglab rank`)
/// keeps: one per resample for each model and each pair of models, 8 bytes each (25 million
/// take 200 MB). 50 models at 1,000,000 resamples would keep 1,275 million (10 GB).
pub const MAX_BOOTSTRAP_VALUES: usize = 25_000_000;

/// Most draws a resampling test may make: resamples times the items each resample draws
/// (`coglab rank`'s bootstrap, `coglab agree`'s permutation test), or times the cells (models
/// x columns) each resample refits (`coglab sem --bootstrap`). At about 30 million draws
/// a second on a loaded machine, 200 million take under 10 s; `rank --resamples 1000000` on
/// MM-IQ's 2,710 items (2.7 billion draws) took 88 s.
pub const MAX_RESAMPLED_DRAWS: u64 = 200_000_000;

/// Resamples that would make more than [`MAX_RESAMPLED_DRAWS`] draws.
///
/// ```
/// use coglab_core::limits::check_draws;
/// let e = check_draws("resamples", 1_000_000, 2710, "items").unwrap_err();
/// assert_eq!(e.to_string(), "resamples: 1000000 resamples of 2710 items make 2710000000 \
///     draws, more than the 200000000 allowed; use at most 73800 resamples");
/// assert!(check_draws("resamples", 2000, 2710, "items").is_ok());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{name}: {resamples} resamples of {items} {what} make {draws} draws, more than the \
     {max} allowed; use at most {fit} resamples"
)]
pub struct DrawsError {
    /// The option or parameter (`resamples`, `bootstrap`).
    pub name: &'static str,
    /// Resamples asked for.
    pub resamples: u64,
    /// Items (or cells) each resample draws.
    pub items: u64,
    /// What they are, e.g. `items` or `cells (models x columns)`.
    pub what: &'static str,
    /// Their product.
    pub draws: u64,
    /// [`MAX_RESAMPLED_DRAWS`].
    pub max: u64,
    /// The most resamples that fit.
    pub fit: u64,
}

/// Checks that `resamples` resamples (the option `name`) of `items` items (named `what` in
/// the message) make at most [`MAX_RESAMPLED_DRAWS`] draws.
///
/// # Errors
/// [`DrawsError`], naming the resamples that fit.
pub fn check_draws(
    name: &'static str,
    resamples: usize,
    items: usize,
    what: &'static str,
) -> Result<(), DrawsError> {
    let (r, n) = (resamples as u64, items as u64);
    let draws = r.saturating_mul(n);
    if draws > MAX_RESAMPLED_DRAWS {
        return Err(DrawsError {
            name,
            resamples: r,
            items: n,
            what,
            draws,
            max: MAX_RESAMPLED_DRAWS,
            fit: MAX_RESAMPLED_DRAWS / n.max(1),
        });
    }
    Ok(())
}

/// Most SEM bootstrap resamples (`sem --bootstrap`). Each resample refits the PLS model.
pub const MAX_BOOTSTRAP: usize = 100_000;

/// Fewest SEM bootstrap resamples: a standard error needs two successful resamples.
pub const MIN_BOOTSTRAP: usize = 2;

/// Most cells (models × columns) of a SEM score matrix built from JSON records: 20 million
/// cells take 320 MB.
pub const MAX_CELLS: usize = 20_000_000;

/// Most cells (respondents × items) of an item analysis (`coglab items`, the Items page).
/// The fit, the flags and the reduced subset each pass over every cell many times: 1.6
/// million cells took 6-7 s in a debug build; 100,000 respondents × 1,000 items (100 million
/// cells) ran past 30 s in a release build (issue 37). A response-matrix CSV is refused
/// before its rows are read.
pub const MAX_ITEM_CELLS: usize = 10_000_000;

/// Share of the models that listwise deletion may drop before `coglab sem` warns loudly
/// (naming how many rows each column cost): above one half, most of the data is gone.
pub const LISTWISE_WARN_SHARE: f64 = 0.5;

/// Most PLS iterations (`sem --max-iter`, the spec's `max_iterations`).
pub const MAX_ITERATIONS: usize = 100_000;

/// A count outside its bounds; the message is shared by the CLI and the core.
///
/// # Examples
///
/// ```
/// use coglab_core::limits::{check, MAX_RESAMPLES};
/// let e = check("resamples", 2_000_000, 1, MAX_RESAMPLES).unwrap_err();
/// assert_eq!(e.to_string(), "resamples: at most 1000000 allowed, found 2000000");
/// let e = check("resamples", 0, 1, MAX_RESAMPLES).unwrap_err();
/// assert_eq!(e.to_string(), "resamples: at least 1 needed, found 0");
/// assert_eq!(check("resamples", 10, 1, MAX_RESAMPLES), Ok(10));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{name}: {}", if *found > *max as u64 { format!("at most {max} allowed, found {found}") } else { format!("at least {min} needed, found {found}") })]
pub struct LimitError {
    /// The option or parameter (e.g. `resamples`).
    pub name: &'static str,
    /// The count asked for.
    pub found: u64,
    /// The smallest count allowed.
    pub min: usize,
    /// The largest count allowed.
    pub max: usize,
}

/// Checks that `min <= found <= max`.
///
/// # Errors
/// [`LimitError`] naming the bound that was crossed.
pub fn check(name: &'static str, found: u64, min: usize, max: usize) -> Result<usize, LimitError> {
    if found < min as u64 || found > max as u64 {
        return Err(LimitError {
            name,
            found,
            min,
            max,
        });
    }
    // In range, so it fits in usize.
    Ok(usize::try_from(found).unwrap_or(max))
}

/// The largest member (decompressed) read from an Inspect `.eval` log: 256 MiB, as its header
/// declares it (a member is held to its declared size, so no member inflates past it). A
/// sample's member is held in memory with its parsed JSON (about twice its size at the peak),
/// so 256 MiB stays within the 1 GB the resource tests allow; the largest sample of the
/// 503 MB benchmark log is 250 KB, and a sample carrying its images and events runs to a few
/// MB. It was 1 GiB, which let a 30 KB log with one 900 MB completion take 1.8 GB.
pub const MAX_EVAL_MEMBER_BYTES: u64 = 256 << 20;

/// The most bytes the members of one `.eval` log may declare (decompressed) in all: 16 GiB,
/// 64 members at [`MAX_EVAL_MEMBER_BYTES`]. Memory holds one member at a time, so this bounds
/// time: the 503 MB benchmark log (about 0.65 GB decompressed) reads in 4.8 s, so 16 GiB is a
/// few minutes of reading, where a log made of overlapping or lying entries could otherwise
/// ask for any amount. Checked from the declared sizes before anything is inflated (from the
/// central directory; a streamed log, member by member).
pub const MAX_EVAL_INFLATED_BYTES: u64 = 64 * MAX_EVAL_MEMBER_BYTES;

/// The longest response (bytes of UTF-8) a harness record keeps: 1 MiB. A longer one keeps its
/// first and last halves with a note between them naming how much was cut (the answer a
/// scorer reads is usually at the end). A model writing at its output limit (64K tokens, about
/// 256 KB of text) fits four times over; 2,710 MM-IQ items at the bound keep 2.8 GB with
/// `--items`, where a single 900 MB completion was kept whole before.
pub const MAX_RESPONSE_BYTES: usize = 1 << 20;

/// The largest Parquet page (decompressed) read: 64 MiB, as its header declares it, checked
/// before anything is allocated or decompressed (a page is held to its declared size, so none
/// inflates past it). Writers cut pages at about 1 MiB (pyarrow, arrow-rs, Spark); a page is
/// larger only when one value is (a response over [`MAX_RESPONSE_BYTES`] is cut anyway). A
/// dictionary page's values are bounded by its bytes too, so one page and its dictionary
/// stay well within the 1 GB the resource tests allow.
pub const MAX_PARQUET_PAGE_BYTES: u64 = 64 << 20;

/// The most rows a Parquet file may declare: 50 million (500 times the 100,000-response
/// benchmark file). A footer claiming more is refused before any row is read; a row group's
/// claim is also checked against the values its pages declare. An Arrow IPC file's record
/// batches are held to it too, each and in sum.
pub const MAX_PARQUET_ROWS: u64 = 50_000_000;

/// The most bytes an Arrow IPC record batch's compressed buffers may decompress to, in sum
/// (256 MiB, as the largest `.eval` member): each buffer's declared size is checked, with
/// the sum so far, before it is decompressed. Buffers that are not compressed are read in
/// place and cost nothing.
pub const MAX_ARROW_BATCH_BYTES: u64 = 256 << 20;
