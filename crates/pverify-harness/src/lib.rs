//! pverify's checks over the compiler: spec-suite cases and their runner
//! ([`harness`]), how two catalogs differ ([`catalog_changes`], one model
//! and one walk for every command) and how `run` and `check` show it
//! ([`catalog_diff`]), golden control repos
//! ([`control`]), `pverify diff` between revisions ([`diff`]), the reports
//! of `run` and `check` ([`report`]) and the merging of sharded runs'
//! reports ([`merge`]), where outputs are written ([`output`]:
//! per-node files confined to their directory, written atomically), and Puppet itself as an oracle ([`reference`]: 7.23 or 8.10).

#![forbid(unsafe_code)]

pub mod catalog_changes;
pub mod catalog_diff;
pub mod control;
pub mod diff;
pub mod factsets;
pub mod file_content;
pub mod harness;
pub mod merge;
pub mod output;
pub mod puppetfile;
pub mod reference;
pub mod report;
