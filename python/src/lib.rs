//! `warren._native`: the Python package's native half. It runs warren's batch engine in process
//! and hands each record batch to Python through the Arrow C Data Interface (PyCapsules), so
//! pyarrow wraps the very buffers the engine filled: nothing is copied or serialised.
//!
//! A run ([`Run`]) generates on a background thread while Python consumes its batches in index
//! order; a bounded channel between them (and the engine's own window of chunks in flight)
//! bounds memory however many levels are asked for. Waiting for a batch releases the interpreter
//! (the GIL) and wakes every 50 ms to let Python handle signals, so Ctrl-C raises
//! `KeyboardInterrupt` promptly; dropping the run (or an interrupt) closes the channel, the
//! engine stops at its next batch, and its thread is joined, so nothing keeps running. The
//! engine builds its worker pool afresh for every run, so processes forked after a run (data
//! loader workers, Ray workers) start with no pool to inherit.
//!
//! Reasoning tasks (`tasks`) skip the run: `task_items` makes a block of items in Rust and hands
//! back Python lists, and `score` runs the Rust scorers over whole lists of answers, both with
//! the interpreter released while Rust works.
//!
//! Errors reach Python as exceptions with the command line's one-line messages: bad profiles,
//! keys, values and arguments as `ValueError`, files that cannot be read as `OSError`, a failed
//! run as `RuntimeError`.

use std::ffi::CString;
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use arrow_array::ffi::{FFI_ArrowSchema, to_ffi};
use arrow_array::ffi_stream::{FFI_ArrowArrayStream, RecordBatchStreamReader};
use arrow_array::{Array, RecordBatch, RecordBatchReader, StructArray};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyDict};

use warren::archive::{ArchiveError, MetaError, RunMeta, level_schema};
use warren::batch::{
    self, BatchError, BatchOptions, BatchSink, BatchSummary, Shard, ShardMeta, check_levels,
};
use warren::core::generator::Generator;
use warren::profile::{GeneratorTask, Profile};
use warren::run::{
    MergeError, MergeOptions, MergeSummary, Run as StoredRun, SplitError, SplitFormat,
    SplitOptions, SplitSummary,
};

mod tasks;

/// How long a wait for the next batch lasts before Python may handle signals.
const POLL: Duration = Duration::from_millis(50);

/// One message from the engine thread.
enum Message {
    Batch(RecordBatch),
    Done(Result<BatchSummary, String>),
}

/// The engine's sink in a run: each batch goes down the channel; a closed channel stops the run.
struct ChannelSink {
    tx: SyncSender<Message>,
}

impl BatchSink for ChannelSink {
    fn write(&mut self, batch: &RecordBatch) -> Result<(), BatchError> {
        self.tx
            .send(Message::Batch(batch.clone()))
            .map_err(|_| BatchError::Stopped("the consumer of the levels went away".into()))
    }

    fn finish(self, _footer: &[(String, String)]) -> Result<u64, BatchError> {
        Ok(0)
    }
}

/// `format!("{e:#}")` on one line: the command line's message.
pub(crate) fn one_line(e: impl std::fmt::Display) -> String {
    e.to_string().replace('\n', " ")
}

/// An error and its causes, `a: b: c`, on one line (as the command line prints it).
pub(crate) fn chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        text.push_str(": ");
        text.push_str(&c.to_string());
        cause = c.source();
    }
    one_line(text)
}

/// A profile error: `OSError` when a file could not be read, `ValueError` otherwise.
fn profile_error(e: warren::profile::ProfileError) -> PyErr {
    let text = chain(&e);
    if matches!(e, warren::profile::ProfileError::Read { .. }) {
        PyOSError::new_err(text)
    } else {
        PyValueError::new_err(text)
    }
}

/// The profile `name` (a kind or a profile file) with `sets` (`key=value`) applied.
fn resolve(name: &str, sets: &[String]) -> PyResult<Profile> {
    let mut profile = Profile::resolve(name).map_err(profile_error)?;
    profile.set_all(sets).map_err(profile_error)?;
    Ok(profile)
}

/// Starts the engine on its own thread; returns the schema and the receiving end.
struct Start<'a> {
    profile: &'a Profile,
    opts: BatchOptions,
    capacity: usize,
}

impl GeneratorTask for Start<'_> {
    type Output = (SchemaRef, Receiver<Message>, JoinHandle<()>);

    fn run<G: Generator>(self, generator: &G) -> Self::Output {
        let opts = self.opts;
        // The files of the generator `Profile::with_generator` just built on this thread.
        let mut run = RunMeta::new(generator, &self.profile.to_toml(), opts.seed)
            .with_files(warren::core::files::last_built());
        // A part of a run that does not start at 0 is not one of its shards: no shard record.
        if opts.start == 0 {
            run = run.with_shard(ShardMeta::new(opts.shard, opts.count));
        }
        let schema = Arc::new(level_schema(&generator.columns(), run.to_metadata()));
        let (tx, rx) = sync_channel(self.capacity);
        let profile = self.profile.clone();
        let run_schema = schema.clone();
        let handle = std::thread::Builder::new()
            .name("warren-run".into())
            .spawn(move || {
                let done = tx.clone();
                let outcome = profile
                    .with_generator(Engine {
                        schema: run_schema,
                        opts: &opts,
                        sink: ChannelSink { tx },
                    })
                    .map_err(one_line)
                    .and_then(|r| r.map_err(one_line));
                let _ = done.send(Message::Done(outcome));
            })
            .expect("a thread for the run");
        (schema, rx, handle)
    }
}

/// The engine's run itself, on the run's thread.
struct Engine<'a> {
    schema: SchemaRef,
    opts: &'a BatchOptions,
    sink: ChannelSink,
}

impl GeneratorTask for Engine<'_> {
    type Output = Result<BatchSummary, BatchError>;

    fn run<G: Generator>(self, generator: &G) -> Self::Output {
        batch::run(generator, self.schema, self.opts, self.sink, Vec::new())
    }
}

/// What `Run.summary()` returns: levels made, seeds failed, and failures by reason.
type RunCounts = (u64, u64, Vec<(String, u64)>);

/// A run of levels being generated: its schema, then its record batches in index order.
#[pyclass(module = "warren._native")]
pub struct Run {
    schema: SchemaRef,
    rx: Option<Mutex<Receiver<Message>>>,
    handle: Option<JoinHandle<()>>,
    summary: Option<BatchSummary>,
}

impl Run {
    /// Stops the engine (closing the channel) and waits for its thread.
    fn stop(&mut self) {
        self.rx = None;
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }

    /// [`Run::stop`] with the GIL released while the engine's thread winds down (it finishes
    /// the chunks in its workers' hands), so other Python threads run meanwhile and nothing the
    /// engine drops can wait on the GIL this thread holds.
    fn stop_detached(&mut self, py: Python<'_>) {
        let rx = self.rx.take();
        let handle = self.handle.take();
        py.detach(move || {
            drop(rx);
            if let Some(h) = handle {
                let _ = h.join();
            }
        });
    }
}

impl Drop for Run {
    fn drop(&mut self) {
        self.stop();
    }
}

#[pymethods]
impl Run {
    /// Starts generating `count` levels of `profile` (a kind or a profile file, with `sets`
    /// applied) from index `start`, master seed `seed`, on `threads` workers (0: all cores).
    #[new]
    #[pyo3(signature = (profile, count, seed=0, start=0, threads=0, sets=Vec::new(), chunk_size=2048))]
    #[allow(clippy::too_many_arguments)] // NOTE: one argument per keyword of the Python call.
    fn new(
        py: Python<'_>,
        profile: &str,
        count: u64,
        seed: u64,
        start: u64,
        threads: usize,
        sets: Vec<String>,
        chunk_size: usize,
    ) -> PyResult<Self> {
        if !(1..=65_536).contains(&chunk_size) {
            return Err(PyValueError::new_err(format!(
                "chunk_size = {chunk_size} is out of range 1..=65536"
            )));
        }
        if start.checked_add(count).is_none() {
            return Err(PyValueError::new_err(format!(
                "start = {start} and count = {count} run past the last index"
            )));
        }
        let profile = resolve(profile, &sets)?;
        let opts = BatchOptions {
            count,
            seed,
            threads,
            shard: Shard::default(),
            start,
            chunk_size,
            progress: false,
            selection: None,
            resume: None,
            kept: Vec::new(),
        };
        let (schema, rx, handle) = py
            .detach(|| {
                profile.with_generator(Start {
                    profile: &profile,
                    opts,
                    capacity: 1,
                })
            })
            .map_err(profile_error)?;
        Ok(Self {
            schema,
            rx: Some(Mutex::new(rx)),
            handle: Some(handle),
            summary: None,
        })
    }

    /// The schema as an Arrow PyCapsule (`pyarrow.schema(run)`).
    fn __arrow_c_schema__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        schema_capsule(py, &self.schema)
    }

    /// The next record batch (an object with `__arrow_c_array__`), or `None` when the run is
    /// done. Raises `KeyboardInterrupt` on Ctrl-C (stopping the run) and `RuntimeError` when the
    /// run failed.
    fn next_batch(&mut self, py: Python<'_>) -> PyResult<Option<Batch>> {
        loop {
            let Some(rx) = self.rx.as_ref() else {
                return Ok(None);
            };
            let received = py.detach(|| {
                rx.lock()
                    .map_err(|_| RecvTimeoutError::Disconnected)
                    .and_then(|rx| rx.recv_timeout(POLL))
            });
            match received {
                Ok(Message::Batch(b)) => return Ok(Some(Batch { batch: Some(b) })),
                Ok(Message::Done(outcome)) => {
                    self.stop_detached(py);
                    return match outcome {
                        Ok(summary) => {
                            self.summary = Some(summary);
                            Ok(None)
                        }
                        Err(e) => Err(PyRuntimeError::new_err(e)),
                    };
                }
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(e) = py.check_signals() {
                        self.stop_detached(py);
                        return Err(e);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    self.stop_detached(py);
                    return Err(PyRuntimeError::new_err(
                        "the run's thread ended unexpectedly",
                    ));
                }
            }
        }
    }

    /// Levels made and seeds failed, by reason (once the run is done).
    fn summary(&self) -> Option<RunCounts> {
        self.summary.as_ref().map(|s| {
            (
                s.levels,
                s.failures,
                s.failure_reasons
                    .iter()
                    .map(|(k, v)| (k.clone(), *v))
                    .collect(),
            )
        })
    }

    /// Stops the run now.
    fn close(&mut self, py: Python<'_>) {
        self.stop_detached(py);
    }
}

/// One record batch, handed over once through `__arrow_c_array__`.
#[pyclass(module = "warren._native")]
pub struct Batch {
    batch: Option<RecordBatch>,
}

#[pymethods]
impl Batch {
    /// The batch as a pair of PyCapsules (schema, array), the Arrow PyCapsule protocol.
    #[pyo3(signature = (requested_schema=None))]
    fn __arrow_c_array__<'py>(
        &mut self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<(Bound<'py, PyCapsule>, Bound<'py, PyCapsule>)> {
        let _ = requested_schema;
        let batch = self
            .batch
            .take()
            .ok_or_else(|| PyValueError::new_err("this batch was already handed over"))?;
        let schema = batch.schema();
        // The struct's field carries the schema's metadata, which becomes the batch's.
        let field = Field::new("", DataType::Struct(schema.fields().clone()), false)
            .with_metadata(schema.metadata().clone());
        let array = StructArray::from(batch);
        // SAFETY-free: `to_ffi` shares the buffers (reference counted), it does not copy them.
        let (ffi_array, _) = to_ffi(&array.to_data())
            .map_err(|e| PyRuntimeError::new_err(format!("exporting a batch: {e}")))?;
        let ffi_schema = FFI_ArrowSchema::try_from(&field)
            .map_err(|e| PyRuntimeError::new_err(format!("exporting a schema: {e}")))?;
        Ok((
            PyCapsule::new(py, ffi_schema, Some(CString::new("arrow_schema").unwrap()))?,
            PyCapsule::new(py, ffi_array, Some(CString::new("arrow_array").unwrap()))?,
        ))
    }
}

fn schema_capsule<'py>(py: Python<'py>, schema: &Schema) -> PyResult<Bound<'py, PyCapsule>> {
    let ffi = FFI_ArrowSchema::try_from(schema)
        .map_err(|e| PyRuntimeError::new_err(format!("exporting a schema: {e}")))?;
    PyCapsule::new(py, ffi, Some(CString::new("arrow_schema").unwrap()))
}

/// The generator kinds.
#[pyfunction]
fn kinds() -> Vec<&'static str> {
    warren::profile::KINDS.to_vec()
}

/// The kind registry's facts, one tuple a kind in the order of `kinds()`: name, doc, card text,
/// grid (levels are grids with a start and a goal), allocations a warm level may make.
#[pyfunction]
fn kind_facts() -> Vec<(&'static str, &'static str, &'static str, bool, u64)> {
    warren::profile::KIND_FACTS
        .iter()
        .map(|k| (k.name, k.doc, k.card, k.grid, k.allocations))
        .collect()
}

/// The built-in profile of `kind`, as TOML.
#[pyfunction]
fn default_profile(kind: &str) -> PyResult<String> {
    Ok(Profile::builtin(kind).map_err(profile_error)?.to_toml())
}

/// Checks levels against their generator (from the table's own profile and master seed):
/// ascending indices, seeds, invariants, and a fresh generation of every seed. `stream` is an
/// object with `__arrow_c_stream__` (a pyarrow Table or RecordBatchReader). Returns (levels,
/// violations, the first `show` violations described).
#[pyfunction]
#[pyo3(signature = (stream, show=10))]
fn verify(
    py: Python<'_>,
    stream: Bound<'_, PyAny>,
    show: usize,
) -> PyResult<(u64, u64, Vec<String>)> {
    let capsule = stream
        .call_method0("__arrow_c_stream__")
        .map_err(|_| PyValueError::new_err("verify takes a pyarrow Table or RecordBatchReader"))?;
    let capsule = capsule
        .cast_into::<PyCapsule>()
        .map_err(|_| PyValueError::new_err("__arrow_c_stream__ did not return a PyCapsule"))?;
    let name = CString::new("arrow_array_stream").unwrap();
    let pointer = capsule.pointer_checked(Some(&name))?.as_ptr() as *mut FFI_ArrowArrayStream;
    // SAFETY: a capsule named "arrow_array_stream" holds an FFI_ArrowArrayStream (the PyCapsule
    // protocol); `from_raw` moves it out, leaving a released stream for the capsule's destructor.
    let reader = unsafe { RecordBatchStreamReader::from_raw(pointer) }
        .map_err(|e| PyValueError::new_err(format!("reading the table: {e}")))?;
    let schema = reader.schema();
    let run = RunMeta::from_schema(&schema).map_err(|e| match e {
        MetaError::Missing { key } => PyValueError::new_err(format!(
            "the table has no {key} metadata: not made by warren"
        )),
        e => PyValueError::new_err(format!("the table's metadata: {e}")),
    })?;
    let run = StoredRun::from_meta_as(run, "the table's warren.profile").map_err(profile_error)?;
    let batches: Vec<RecordBatch> = reader
        .collect::<Result<_, _>>()
        .map_err(|e| PyValueError::new_err(format!("reading the table: {e}")))?;
    let same_version = run.meta().version == env!("CARGO_PKG_VERSION");
    let task = Verify {
        batches: &batches,
        seed: run.meta().master_seed,
        regenerate: same_version,
        show,
    };
    // Built from the profile's files as stored with the levels, when the table carries them.
    py.detach(|| run.with_generator_or_mixture(task))
        .map_err(profile_error)?
        .map_err(PyValueError::new_err)
}

struct Verify<'a> {
    batches: &'a [RecordBatch],
    seed: u64,
    regenerate: bool,
    show: usize,
}

impl GeneratorTask for Verify<'_> {
    type Output = Result<(u64, u64, Vec<String>), String>;

    fn run<G: Generator>(self, generator: &G) -> Self::Output {
        let (mut levels, mut count, mut shown) = (0, 0, Vec::new());
        let mut previous: Option<u64> = None;
        for batch in self.batches {
            let check = check_levels(
                generator,
                batch,
                self.seed,
                self.regenerate,
                self.show,
                None,
            )
            .map_err(|e| e.to_string())?;
            if check.rows > 0 {
                if let Some(p) = previous.filter(|&p| check.first <= p) {
                    count += 1;
                    shown.push(format!("level {}: index follows {p}", check.first));
                }
                previous = Some(check.last);
            }
            levels += check.rows;
            count += check.count;
            shown.extend(check.shown);
        }
        shown.truncate(self.show);
        Ok((levels, count, shown))
    }
}

/// A merge's error: `OSError` when a file could not be read or written, `RuntimeError` when
/// making the rest of a run failed, `ValueError` for a refusal (shards that are not one run).
fn merge_error(e: MergeError) -> PyErr {
    let text = chain(&e);
    match e {
        MergeError::NoOutputFolder { .. }
        | MergeError::Archive(
            ArchiveError::Io { .. } | ArchiveError::Kept { .. } | ArchiveError::Parquet { .. },
        ) => PyOSError::new_err(text),
        MergeError::Batches(_) | MergeError::Arrow(_) | MergeError::Batch { .. } => {
            PyRuntimeError::new_err(text)
        }
        _ => PyValueError::new_err(text),
    }
}

/// A split's error: `OSError` when a file could not be read or written, `RuntimeError` when
/// Arrow failed, `ValueError` for bad shares or an archive that cannot be split.
fn split_error(e: SplitError) -> PyErr {
    let text = chain(&e);
    match e {
        SplitError::MakeFolder { .. }
        | SplitError::Archive(ArchiveError::Io { .. } | ArchiveError::Parquet { .. }) => {
            PyOSError::new_err(text)
        }
        SplitError::Arrow(_) => PyRuntimeError::new_err(text),
        _ => PyValueError::new_err(text),
    }
}

/// Joins the shard archives `parts` of one run into the archive `out`, as `warren merge` does
/// (the same checks, messages and bytes). Returns the summary as a dict.
#[pyfunction]
#[pyo3(signature = (parts, out, unique=false, threads=0, resume=false, progress=false))]
fn merge<'py>(
    py: Python<'py>,
    parts: Vec<std::path::PathBuf>,
    out: std::path::PathBuf,
    unique: bool,
    threads: usize,
    resume: bool,
    progress: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let options = MergeOptions {
        unique,
        threads,
        resume,
        progress,
    };
    let summary = py
        .detach(|| warren::run::merge(&parts, &out, options))
        .map_err(merge_error)?;
    merge_summary(py, &summary)
}

/// A merge's summary as a dict.
fn merge_summary<'py>(py: Python<'py>, s: &MergeSummary) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("shards", s.shards)?;
    d.set_item("total", s.total)?;
    d.set_item("levels", s.levels)?;
    d.set_item("from_shards", s.from_shards)?;
    d.set_item("failed", s.failed())?;
    d.set_item("failures", s.failures.clone())?;
    let scanned = s.scanned.as_ref().map(|sc| {
        let d = PyDict::new(py);
        d.set_item("start", sc.start)?;
        d.set_item("end", sc.end)?;
        d.set_item("duplicates", sc.duplicates)?;
        d.set_item("filtered", sc.filtered)?;
        PyResult::Ok(d)
    });
    d.set_item("scanned", scanned.transpose()?)?;
    d.set_item("bytes", s.bytes)?;
    let resumed = s.resumed.as_ref().map(|r| {
        let d = PyDict::new(py);
        d.set_item("temp", r.temp.to_string_lossy())?;
        d.set_item("batches", r.batches)?;
        d.set_item("levels", r.levels)?;
        d.set_item("bytes", r.bytes)?;
        d.set_item("dropped_bytes", r.dropped_bytes)?;
        PyResult::Ok(d)
    });
    d.set_item("resumed", resumed.transpose()?)?;
    d.set_item("finished_already", s.finished_already)?;
    Ok(d)
}

/// Splits the archive `archive` into train, val and test by `canonical_hash` into the folder
/// `out`, as `warren split` does (`format` `arrow` or `parquet`). Returns the summary as a
/// dict.
#[pyfunction]
#[pyo3(signature = (archive, out, train=0.8, val=0.1, test=0.1, format="arrow"))]
fn split<'py>(
    py: Python<'py>,
    archive: std::path::PathBuf,
    out: std::path::PathBuf,
    train: f64,
    val: f64,
    test: f64,
    format: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let format = match format {
        "arrow" => SplitFormat::Arrow,
        "parquet" => SplitFormat::Parquet,
        other => {
            return Err(PyValueError::new_err(format!(
                "format `{other}`: expected `arrow` or `parquet`"
            )));
        }
    };
    let options = SplitOptions {
        train,
        val,
        test,
        format,
    };
    let summary = py
        .detach(|| warren::run::split(&archive, &out, options))
        .map_err(split_error)?;
    split_summary(py, &summary)
}

/// A split's summary as a dict: the source's level count and one dict per split written.
fn split_summary<'py>(py: Python<'py>, s: &SplitSummary) -> PyResult<Bound<'py, PyDict>> {
    let parts = s
        .parts
        .iter()
        .map(|p| {
            let d = PyDict::new(py);
            d.set_item("name", p.name)?;
            d.set_item("file_name", p.file_name)?;
            d.set_item("share", p.share)?;
            d.set_item("levels", p.levels)?;
            d.set_item("bytes", p.bytes)?;
            d.set_item("path", p.path.to_string_lossy())?;
            Ok(d)
        })
        .collect::<PyResult<Vec<_>>>()?;
    let d = PyDict::new(py);
    d.set_item("levels", s.levels)?;
    d.set_item("splits", parts)?;
    Ok(d)
}

/// `warren ARGS...`, the command line, run in this process (the `warren` command a wheel
/// installs comes here): `argv` with the program's name first; returns the exit status.
#[pyfunction]
fn cli(py: Python<'_>, argv: Vec<std::ffi::OsString>) -> u8 {
    let code = py.detach(|| warren::cli::run(argv));
    // `ExitCode` has no accessor: its status is the one byte it equals.
    (0..=u8::MAX)
        .find(|&c| std::process::ExitCode::from(c) == code)
        .unwrap_or(1)
}

/// The native module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Run>()?;
    m.add_class::<Batch>()?;
    m.add_function(wrap_pyfunction!(kinds, m)?)?;
    m.add_function(wrap_pyfunction!(kind_facts, m)?)?;
    m.add_function(wrap_pyfunction!(default_profile, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add_function(wrap_pyfunction!(merge, m)?)?;
    m.add_function(wrap_pyfunction!(split, m)?)?;
    m.add_function(wrap_pyfunction!(cli, m)?)?;
    tasks::register(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    // The commit and CPU features of the engine inside, as `warren --version` names them.
    m.add("__build__", warren::BUILD)?;
    Ok(())
}
