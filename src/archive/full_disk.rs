//! Tests only: a disk that fills up. A test sets the room an archive file ([`ARCHIVE`]: read
//! when this thread creates or reopens one) or a progress record ([`RECORD`]: read when this
//! thread writes its lines) has; the file takes that many bytes and then fails as a full disk
//! does: the write that crosses the limit puts what fits (in whole blocks of `align` bytes, as
//! direct I/O would) and returns `ENOSPC`.
//!
//! The real thing is tested too: `tests/reliability/disk.rs` fills a small tmpfs where the
//! tests may mount one. This hook lets the unit tests stop a run at any byte, everywhere.

use std::cell::Cell;
use std::io::Write;

thread_local! {
    /// Bytes an archive's `FILE.tmp` may hold (`None`: no limit).
    pub static ARCHIVE: Cell<Option<u64>> = const { Cell::new(None) };
    /// Bytes a progress record `FILE.tmp.progress` may hold (`None`: no limit).
    pub static RECORD: Cell<Option<u64>> = const { Cell::new(None) };
}

/// The error of a full disk.
pub fn no_space() -> std::io::Error {
    std::io::Error::from_raw_os_error(28)
}

/// Writes `bytes` at offset `at` of `out`, a file with `room` bytes: all of them when they fit,
/// else the whole `align`-byte blocks that fit, then `ENOSPC`.
pub fn write_all<W: Write>(
    out: &mut W,
    bytes: &[u8],
    at: u64,
    room: Option<u64>,
    align: usize,
) -> std::io::Result<()> {
    let Some(room) = room.filter(|&r| at + bytes.len() as u64 > r) else {
        return out.write_all(bytes);
    };
    let fits = room.saturating_sub(at) as usize / align * align;
    out.write_all(&bytes[..fits])?;
    Err(no_space())
}
