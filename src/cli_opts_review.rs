//! The review flags (issue 28): the Markdown size budget of `diff`, stale
//! goldens in `check` and `bless`.

use clap::Args;

/// GitHub holds 65,536 characters in a comment; a little room is left for
/// what a CI step adds around the report.
pub const DEFAULT_MAX_BYTES: usize = 65_000;

#[derive(Args, Clone, Debug)]
pub struct DiffReviewOpts {
    /// Markdown: at most this many bytes (the summary and the biggest
    /// changes first, then a line saying what was left out); 0: no limit.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_BYTES)]
    pub max_bytes: usize,
    /// Markdown: where the full report is (a URL, an artefact), named when
    /// something was left out. Without it, `--output FILE` also writes the
    /// full Markdown to `FILE` with `.full.md` in place of its extension.
    #[arg(long, value_name = "TEXT")]
    pub full_report_url: Option<String>,
}

#[derive(Args, Clone, Debug, Default)]
pub struct CheckReviewOpts {
    /// Goldens of nodes no longer in the matrix fail the check (otherwise
    /// a warning).
    #[arg(long)]
    pub strict_goldens: bool,
}

#[derive(Args, Clone, Debug, Default)]
pub struct BlessReviewOpts {
    /// Remove the goldens of nodes no longer in the matrix.
    #[arg(long)]
    pub prune: bool,
}
