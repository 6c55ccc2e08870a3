//! The promises of docs/reliability.md, each tested: a killed run never damages
//! the archive already under its output name, a full or read-only disk is a one-line error that
//! leaves no file, an archive opened with the safe reader survives the file being cut or
//! rewritten underneath it, and untrusted inputs too big to handle are refused before the world
//! is allocated.

mod bounds;
mod disk;
mod kill;
mod truncated;
