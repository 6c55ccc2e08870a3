//! NumPy's file formats, written by streaming: `.npy` (format 1.0: a magic string, a header
//! dictionary padded to 64 bytes, then the raw little-endian array, C order) and `.npz` (a zip
//! archive of `.npy` members, stored uncompressed with zip64 records so members may pass
//! 4 GiB). Both go to a temporary file renamed into place when complete, so a failed export
//! leaves nothing under the output name.

use std::fs::File;
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The element type of an array, as NumPy spells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dtype {
    /// `bool` (one byte, 0 or 1).
    Bool,
    /// `uint8`.
    U8,
    /// `uint32`, little-endian.
    U32,
    /// `int32`, little-endian.
    I32,
}

impl Dtype {
    fn descr(self) -> &'static str {
        match self {
            Dtype::Bool => "|b1",
            Dtype::U8 => "|u1",
            Dtype::U32 => "<u4",
            Dtype::I32 => "<i4",
        }
    }

    /// Bytes per element.
    pub fn size(self) -> u64 {
        match self {
            Dtype::Bool | Dtype::U8 => 1,
            Dtype::U32 | Dtype::I32 => 4,
        }
    }
}

/// The `.npy` header (magic, version 1.0, dictionary) of an array of `dtype` and `shape`.
pub fn header(dtype: Dtype, shape: &[u64]) -> Vec<u8> {
    let dims: Vec<String> = shape.iter().map(u64::to_string).collect();
    let shape = match dims.len() {
        1 => format!("({},)", dims[0]),
        _ => format!("({})", dims.join(", ")),
    };
    let mut dict = format!(
        "{{'descr': '{}', 'fortran_order': False, 'shape': {shape}, }}",
        dtype.descr()
    );
    // Magic (6) + version (2) + length (2) + dictionary + newline, padded to 64 bytes.
    let unpadded = 10 + dict.len() + 1;
    dict.push_str(&" ".repeat(unpadded.next_multiple_of(64) - unpadded));
    dict.push('\n');
    let mut out = Vec::with_capacity(10 + dict.len());
    out.extend_from_slice(b"\x93NUMPY\x01\x00");
    out.extend_from_slice(&(dict.len() as u16).to_le_bytes());
    out.extend_from_slice(dict.as_bytes());
    out
}

/// A file written under a temporary name and renamed onto its path by [`Staged::commit`];
/// dropped uncommitted, it removes itself.
pub struct Staged {
    path: PathBuf,
    tmp: PathBuf,
    file: Option<BufWriter<File>>,
}

impl Staged {
    /// Creates `path.tmp`.
    ///
    /// # Errors
    /// The file cannot be created.
    pub fn create(path: &Path) -> io::Result<Self> {
        let tmp = crate::archive::temp_path(path);
        let file = File::create(&tmp)?;
        Ok(Self {
            path: path.to_path_buf(),
            tmp,
            file: Some(BufWriter::with_capacity(1 << 20, file)),
        })
    }

    fn file(&mut self) -> &mut BufWriter<File> {
        self.file.as_mut().expect("not committed")
    }

    /// Syncs the file and renames it onto its path.
    ///
    /// # Errors
    /// Writing, syncing or renaming failed (the temporary file is removed).
    pub fn commit(mut self) -> io::Result<()> {
        let file = self.file.take().expect("committed once");
        let done = file
            .into_inner()
            .map_err(io::IntoInnerError::into_error)
            .and_then(|f| f.sync_all())
            .and_then(|()| std::fs::rename(&self.tmp, &self.path));
        if done.is_err() {
            let _ = std::fs::remove_file(&self.tmp);
        }
        done
    }
}

impl Write for Staged {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file().write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file().flush()
    }
}

impl Seek for Staged {
    fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        self.file().seek(pos)
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// One member of an `.npz` being written.
struct Member {
    name: String,
    offset: u64,
    size: u64,
    crc: u32,
}

/// Writes an `.npz`: members one after another, each streamed (header first, then data), the
/// zip directory at the end.
pub struct NpzWriter {
    out: Staged,
    members: Vec<Member>,
    open: Option<(Member, crc32fast::Hasher)>,
}

/// DOS date 1980-01-01 00:00 (a fixed stamp keeps exports byte-for-byte reproducible).
const DOS_DATE: u16 = (1 << 5) | 1;

impl NpzWriter {
    /// Starts an `.npz` at `path` (written under a temporary name until [`finish`](Self::finish)).
    ///
    /// # Errors
    /// The file cannot be created.
    pub fn create(path: &Path) -> io::Result<Self> {
        Ok(Self {
            out: Staged::create(path)?,
            members: Vec::new(),
            open: None,
        })
    }

    /// Starts member `name.npy` holding an array of `dtype` and `shape`; its data follows by
    /// [`write`](Self::write), `shape`'s product times the element size in bytes.
    ///
    /// # Errors
    /// Writing failed.
    pub fn begin(&mut self, name: &str, dtype: Dtype, shape: &[u64]) -> io::Result<()> {
        self.end()?;
        let name = format!("{name}.npy");
        let offset = self.out.stream_position()?;
        // Local header; CRC and sizes are patched when the member ends. zip64: the 32-bit sizes
        // are 0xFFFFFFFF and the real ones sit in the extra field.
        let mut h = Vec::with_capacity(30 + name.len() + 20);
        h.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
        h.extend_from_slice(&45u16.to_le_bytes()); // version needed: zip64
        h.extend_from_slice(&0u16.to_le_bytes()); // flags
        h.extend_from_slice(&0u16.to_le_bytes()); // stored
        h.extend_from_slice(&0u16.to_le_bytes()); // time
        h.extend_from_slice(&DOS_DATE.to_le_bytes());
        h.extend_from_slice(&0u32.to_le_bytes()); // crc, patched
        h.extend_from_slice(&u32::MAX.to_le_bytes());
        h.extend_from_slice(&u32::MAX.to_le_bytes());
        h.extend_from_slice(&(name.len() as u16).to_le_bytes());
        h.extend_from_slice(&20u16.to_le_bytes());
        h.extend_from_slice(name.as_bytes());
        h.extend_from_slice(&1u16.to_le_bytes()); // zip64 extra
        h.extend_from_slice(&16u16.to_le_bytes());
        h.extend_from_slice(&0u64.to_le_bytes()); // sizes, patched
        h.extend_from_slice(&0u64.to_le_bytes());
        self.out.write_all(&h)?;
        self.open = Some((
            Member {
                name,
                offset,
                size: 0,
                crc: 0,
            },
            crc32fast::Hasher::new(),
        ));
        self.write(&header(dtype, shape))
    }

    /// Appends data to the open member.
    ///
    /// # Errors
    /// Writing failed.
    pub fn write(&mut self, bytes: &[u8]) -> io::Result<()> {
        let (member, crc) = self.open.as_mut().expect("a member is open");
        crc.update(bytes);
        member.size += bytes.len() as u64;
        self.out.write_all(bytes)
    }

    /// Ends the open member, patching its local header.
    fn end(&mut self) -> io::Result<()> {
        let Some((mut member, crc)) = self.open.take() else {
            return Ok(());
        };
        member.crc = crc.finalize();
        let here = self.out.stream_position()?;
        self.out.seek(SeekFrom::Start(member.offset + 14))?;
        self.out.write_all(&member.crc.to_le_bytes())?;
        let extra = member.offset + 30 + member.name.len() as u64 + 4;
        self.out.seek(SeekFrom::Start(extra))?;
        self.out.write_all(&member.size.to_le_bytes())?;
        self.out.write_all(&member.size.to_le_bytes())?;
        self.out.seek(SeekFrom::Start(here))?;
        self.members.push(member);
        Ok(())
    }

    /// Ends the last member, writes the zip directory and renames the file into place.
    ///
    /// # Errors
    /// Writing failed (nothing is left under the output name).
    pub fn finish(mut self) -> io::Result<()> {
        self.end()?;
        let start = self.out.stream_position()?;
        for m in &self.members {
            let mut c = Vec::with_capacity(46 + m.name.len() + 28);
            c.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
            c.extend_from_slice(&45u16.to_le_bytes()); // made by
            c.extend_from_slice(&45u16.to_le_bytes()); // needed
            c.extend_from_slice(&0u16.to_le_bytes());
            c.extend_from_slice(&0u16.to_le_bytes());
            c.extend_from_slice(&0u16.to_le_bytes());
            c.extend_from_slice(&DOS_DATE.to_le_bytes());
            c.extend_from_slice(&m.crc.to_le_bytes());
            c.extend_from_slice(&u32::MAX.to_le_bytes());
            c.extend_from_slice(&u32::MAX.to_le_bytes());
            c.extend_from_slice(&(m.name.len() as u16).to_le_bytes());
            c.extend_from_slice(&28u16.to_le_bytes()); // extra
            c.extend_from_slice(&0u16.to_le_bytes()); // comment
            c.extend_from_slice(&0u16.to_le_bytes()); // disk
            c.extend_from_slice(&0u16.to_le_bytes()); // internal attributes
            c.extend_from_slice(&0u32.to_le_bytes()); // external attributes
            c.extend_from_slice(&u32::MAX.to_le_bytes()); // offset: in zip64 extra
            c.extend_from_slice(m.name.as_bytes());
            c.extend_from_slice(&1u16.to_le_bytes());
            c.extend_from_slice(&24u16.to_le_bytes());
            c.extend_from_slice(&m.size.to_le_bytes());
            c.extend_from_slice(&m.size.to_le_bytes());
            c.extend_from_slice(&m.offset.to_le_bytes());
            self.out.write_all(&c)?;
        }
        let end = self.out.stream_position()?;
        let count = self.members.len() as u64;
        let mut e = Vec::with_capacity(56 + 20 + 22);
        // zip64 end of central directory record.
        e.extend_from_slice(&0x0606_4b50u32.to_le_bytes());
        e.extend_from_slice(&44u64.to_le_bytes());
        e.extend_from_slice(&45u16.to_le_bytes());
        e.extend_from_slice(&45u16.to_le_bytes());
        e.extend_from_slice(&0u32.to_le_bytes());
        e.extend_from_slice(&0u32.to_le_bytes());
        e.extend_from_slice(&count.to_le_bytes());
        e.extend_from_slice(&count.to_le_bytes());
        e.extend_from_slice(&(end - start).to_le_bytes());
        e.extend_from_slice(&start.to_le_bytes());
        // Its locator.
        e.extend_from_slice(&0x0706_4b50u32.to_le_bytes());
        e.extend_from_slice(&0u32.to_le_bytes());
        e.extend_from_slice(&end.to_le_bytes());
        e.extend_from_slice(&1u32.to_le_bytes());
        // The classic end record, pointing at the zip64 one.
        e.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
        e.extend_from_slice(&[0; 4]);
        e.extend_from_slice(&u16::MAX.to_le_bytes());
        e.extend_from_slice(&u16::MAX.to_le_bytes());
        e.extend_from_slice(&u32::MAX.to_le_bytes());
        e.extend_from_slice(&u32::MAX.to_le_bytes());
        e.extend_from_slice(&0u16.to_le_bytes());
        self.out.write_all(&e)?;
        self.out.commit()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_padded_to_64_bytes_and_spell_the_shape() {
        let h = header(Dtype::U8, &[3, 65, 65]);
        assert_eq!(h.len() % 64, 0);
        assert_eq!(&h[..8], b"\x93NUMPY\x01\x00");
        let dict = std::str::from_utf8(&h[10..]).unwrap();
        assert!(
            dict.starts_with("{'descr': '|u1', 'fortran_order': False, 'shape': (3, 65, 65), }")
        );
        assert!(dict.ends_with('\n'));
        let one = header(Dtype::I32, &[7]);
        assert!(
            std::str::from_utf8(&one[10..])
                .unwrap()
                .contains("'shape': (7,)")
        );
    }

    #[test]
    fn a_failed_export_leaves_nothing() {
        let dir = std::env::temp_dir().join(format!("warren-npz-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("x.npz");
        {
            let mut w = NpzWriter::create(&path).unwrap();
            w.begin("a", Dtype::U8, &[2]).unwrap();
            w.write(&[1, 2]).unwrap();
            // Dropped without `finish`.
        }
        assert!(!path.exists());
        assert!(!crate::archive::temp_path(&path).exists());
        let mut w = NpzWriter::create(&path).unwrap();
        w.begin("a", Dtype::U8, &[2]).unwrap();
        w.write(&[1, 2]).unwrap();
        w.begin("b", Dtype::U32, &[1]).unwrap();
        w.write(&7u32.to_le_bytes()).unwrap();
        w.finish().unwrap();
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(&bytes[..4], b"PK\x03\x04");
        assert_eq!(&bytes[bytes.len() - 22..bytes.len() - 18], b"PK\x05\x06");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
