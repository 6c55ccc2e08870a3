//! Reasoning tasks (issue 46) for Python: items made in Rust in blocks, and the scorers run on
//! whole lists. Rust works with the interpreter released; only handing strings over holds it.
//!
//! A task configuration reaches Rust as JSON text (the keys of the `[task]` profile section).
//! Building a [`TaskGenerator`] is not free (maze generators per size and algorithm, source
//! tables), so each configuration text keeps its generator, and its workers' scratch, in a small
//! cache: a repeated block costs only the items.

use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};
use rayon::prelude::*;

use warren::core::generator::MetricKind;
use warren::task::{MAX_ANSWER_BYTES, TaskConfig, TaskGenerator, TaskName, TaskScratch, TraceKind};

/// Configurations whose generators are kept; the one used longest ago goes beyond this many.
const CACHED_GENERATORS: usize = 16;

/// Items a worker makes in one go when a block is spread over threads.
const CHUNK: usize = 256;

/// A generator and the scratch its finished workers left behind.
struct Cached {
    generator: TaskGenerator,
    spare: Mutex<Vec<TaskScratch>>,
}

impl Cached {
    /// A warm scratch if one is spare, else a fresh one.
    fn take_scratch(&self) -> TaskScratch {
        lock(&self.spare).pop().unwrap_or_default()
    }

    fn return_scratch(&self, s: TaskScratch) {
        lock(&self.spare).push(s);
    }
}

/// The cache, most recently used last.
type Cache = Vec<(String, Arc<Cached>)>;

fn cache() -> &'static Mutex<Cache> {
    static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(Vec::new()))
}

/// The lock, also after a panic elsewhere (the data stays consistent: entries are whole).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// `serde_json`'s message without its ` at line 1 column 9` tail.
fn without_position(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.rfind(" at line ") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

/// The configuration in `text`, checked: a one-line error naming the key otherwise.
fn parse_config(text: &str) -> Result<TaskConfig, String> {
    let cfg: TaskConfig = serde_json::from_str(text).map_err(|e| read_error(text, &e))?;
    cfg.validate().map_err(|e| crate::one_line(&e))?;
    Ok(cfg)
}

/// Why `text` is no configuration, naming the key: `serde_json`'s messages say what is wrong
/// (`unknown variant `nope``) but not where, so each key is read alone to find the one at fault.
#[inline(never)]
fn read_error(text: &str, e: &serde_json::Error) -> String {
    let Ok(serde_json::Value::Object(keys)) = serde_json::from_str(text) else {
        return format!("task config: {}", without_position(e));
    };
    for (key, value) in keys {
        let alone = serde_json::Value::Object([(key.clone(), value)].into_iter().collect());
        if let Err(e) = serde_json::from_value::<TaskConfig>(alone) {
            return format!("task.{key}: {}", without_position(&e));
        }
    }
    format!("task config: {}", without_position(e))
}

/// The generator of the configuration `text`, from the cache or built (and cached).
fn generator(text: &str) -> Result<Arc<Cached>, String> {
    {
        let mut c = lock(cache());
        if let Some(at) = c.iter().position(|(t, _)| t == text) {
            let entry = c.remove(at);
            let cached = entry.1.clone();
            c.push(entry);
            return Ok(cached);
        }
    }
    // Built outside the lock: another thread may build the same one meanwhile, which is only
    // work done twice.
    let cfg = parse_config(text)?;
    let generator = TaskGenerator::new(cfg).map_err(|e| crate::chain(&e))?;
    let cached = Arc::new(Cached {
        generator,
        spare: Mutex::new(Vec::new()),
    });
    let mut c = lock(cache());
    if c.len() >= CACHED_GENERATORS {
        c.remove(0);
    }
    c.push((text.to_string(), cached.clone()));
    Ok(cached)
}

/// Items `start .. start + count` of a run, as columns in index order.
#[derive(Default)]
struct Block {
    index: Vec<u64>,
    question: Vec<String>,
    answer: Vec<String>,
    ground_truth: Vec<String>,
    trace: Vec<String>,
    image: Vec<Vec<u8>>,
    /// Row-major: `metrics.len() / index.len()` values per item.
    metrics: Vec<f64>,
    /// Items that could not be made: index and reason.
    failed: Vec<(u64, String)>,
}

impl Block {
    fn append(&mut self, mut other: Block) {
        self.index.append(&mut other.index);
        self.question.append(&mut other.question);
        self.answer.append(&mut other.answer);
        self.ground_truth.append(&mut other.ground_truth);
        self.trace.append(&mut other.trace);
        self.image.append(&mut other.image);
        self.metrics.append(&mut other.metrics);
        self.failed.append(&mut other.failed);
    }
}

/// Items `lo..hi` of the run with master seed `seed`, on this thread.
fn make_range(c: &Cached, seed: u64, lo: u64, hi: u64) -> Block {
    let traced = c.generator.config().trace != TraceKind::None;
    let imaged = c
        .generator
        .config()
        .renderings
        .contains(&warren::task::Rendering::Png);
    let mut s = c.take_scratch();
    let mut b = Block::default();
    for index in lo..hi {
        match c.generator.item(index, warren::mix(seed, index), &mut s) {
            Ok(()) => {
                let item = &s.item;
                b.index.push(index);
                b.question.push(item.question.clone());
                b.answer.push(item.answer.clone());
                b.ground_truth.push(item.ground_truth.clone());
                if traced {
                    b.trace.push(item.trace.clone());
                }
                if imaged {
                    b.image.push(item.image.clone());
                }
                b.metrics.extend_from_slice(&item.metrics);
            }
            Err(e) => b.failed.push((index, e.to_string())),
        }
    }
    c.return_scratch(s);
    b
}

/// Items `start .. start + count` on `threads` workers (0: every core), in index order: the same
/// items for any thread count, since item `i` depends only on the seed and `i`.
fn make_block(c: &Cached, seed: u64, start: u64, count: u64, threads: usize) -> Block {
    let end = start + count;
    // PERF: below two chunks the pool's start costs more than it saves.
    if threads == 1 || count <= 2 * CHUNK as u64 {
        return make_range(c, seed, start, end);
    }
    let ranges: Vec<(u64, u64)> = (start..end)
        .step_by(CHUNK)
        .map(|lo| (lo, (lo + CHUNK as u64).min(end)))
        .collect();
    // NOTE: a pool per block, not a global one, so that a process forked after a call (a data
    // loader worker) inherits no pool threads.
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build();
    let parts: Vec<Block> = match pool {
        Ok(pool) => pool.install(|| {
            ranges
                .par_iter()
                .map(|&(lo, hi)| make_range(c, seed, lo, hi))
                .collect()
        }),
        Err(_) => vec![make_range(c, seed, start, end)],
    };
    let mut block = Block::default();
    for part in parts {
        block.append(part);
    }
    block
}

/// Items `start .. start + count` of the task `config_json` with master seed `seed`, made with
/// the interpreter released, and their generator.
fn made_block(
    py: Python<'_>,
    config_json: &str,
    seed: u64,
    start: u64,
    count: u64,
    threads: usize,
) -> PyResult<(Arc<Cached>, Block)> {
    if start.checked_add(count).is_none() {
        return Err(PyValueError::new_err(format!(
            "start = {start} and count = {count} run past the last index"
        )));
    }
    py.detach(|| {
        let cached = generator(config_json)?;
        let block = make_block(&cached, seed, start, count, threads);
        Ok::<_, String>((cached, block))
    })
    .map_err(PyValueError::new_err)
}

/// Items `start .. start + count` of the task `config_json` (the `[task]` keys as JSON) with
/// master seed `seed`, made in Rust on `threads` workers (0: every core; the items do not depend
/// on it), as a dict of lists in index order: `index`, `question`, `answer`, `ground_truth`,
/// `metrics` (a dict, metric name -> list), `trace` and `image` (lists when the configuration
/// asks for them, else None) and `failed` (a list of `(index, reason)` for items that could not
/// be made, which the other lists skip). A configuration that fails its checks raises
/// `ValueError` with a one-line message naming the key.
#[pyfunction]
#[pyo3(signature = (config_json, seed, start, count, threads=1))]
pub fn task_items<'py>(
    py: Python<'py>,
    config_json: &str,
    seed: u64,
    start: u64,
    count: u64,
    threads: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let (cached, block) = made_block(py, config_json, seed, start, count, threads)?;
    block_dict(py, &cached, block)
}

/// The block as Python lists.
fn block_dict<'py>(py: Python<'py>, c: &Cached, b: Block) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let specs = c.generator.metrics();
    let metrics = PyDict::new(py);
    let width = specs.len();
    for (j, spec) in specs.iter().enumerate() {
        let column = b.metrics.iter().skip(j).step_by(width.max(1));
        let list = match spec.kind {
            MetricKind::U32 => PyList::new(py, column.map(|&v| v as u64))?,
            MetricKind::F32 => PyList::new(py, column.copied())?,
        };
        metrics.set_item(spec.name, list)?;
    }
    let cfg = c.generator.config();
    d.set_item("index", b.index)?;
    d.set_item("question", b.question)?;
    d.set_item("answer", b.answer)?;
    d.set_item("ground_truth", b.ground_truth)?;
    d.set_item("metrics", metrics)?;
    if cfg.trace != TraceKind::None {
        d.set_item("trace", b.trace)?;
    } else {
        d.set_item("trace", py.None())?;
    }
    if cfg.renderings.contains(&warren::task::Rendering::Png) {
        let images: Vec<Bound<'py, PyBytes>> =
            b.image.iter().map(|i| PyBytes::new(py, i)).collect();
        d.set_item("image", images)?;
    } else {
        d.set_item("image", py.None())?;
    }
    d.set_item("failed", b.failed)?;
    Ok(d)
}

/// A block's entries (None where an item could not be made) and the `(index, reason)` of those.
type Entries<'py> = (Bound<'py, PyList>, Vec<(u64, String)>);

/// Items `start .. start + count` of the task `config_json` with master seed `seed` (as
/// [`task_items`]), each already the reasoning-gym entry `{"question", "answer", "metadata"}`,
/// built here so that Python only hands them out. `base` is the metadata every entry starts
/// from (copied per entry; its keys keep their order, and `source_index` and `ground_truth` are
/// set per entry), then come the metrics, `trace` and `image` when the configuration makes them,
/// and a copy of `difficulty`. Returns the entries in index order (None where an item could not
/// be made) and the `(index, reason)` of those items.
#[pyfunction]
#[pyo3(signature = (config_json, seed, start, count, threads, base, difficulty))]
#[allow(clippy::too_many_arguments)]
pub fn task_entries<'py>(
    py: Python<'py>,
    config_json: &str,
    seed: u64,
    start: u64,
    count: u64,
    threads: usize,
    base: &Bound<'py, PyDict>,
    difficulty: &Bound<'py, PyDict>,
) -> PyResult<Entries<'py>> {
    let (cached, block) = made_block(py, config_json, seed, start, count, threads)?;
    let specs = cached.generator.metrics();
    let names: Vec<Bound<'py, PyString>> =
        specs.iter().map(|m| PyString::intern(py, m.name)).collect();
    let width = specs.len();
    let k_question = pyo3::intern!(py, "question");
    let k_answer = pyo3::intern!(py, "answer");
    let k_metadata = pyo3::intern!(py, "metadata");
    let k_index = pyo3::intern!(py, "source_index");
    let k_truth = pyo3::intern!(py, "ground_truth");
    let k_trace = pyo3::intern!(py, "trace");
    let k_image = pyo3::intern!(py, "image");
    let k_difficulty = pyo3::intern!(py, "difficulty");
    let cfg = cached.generator.config();
    let traced = cfg.trace != TraceKind::None;
    let imaged = cfg.renderings.contains(&warren::task::Rendering::Png);
    let entries = PyList::empty(py);
    let mut made = 0usize;
    let mut failed = block.failed.iter().peekable();
    for index in start..start + count {
        if failed.peek().is_some_and(|(i, _)| *i == index) {
            failed.next();
            entries.append(py.None())?;
            continue;
        }
        let k = made;
        made += 1;
        debug_assert_eq!(block.index[k], index);
        // PERF: a copy of the base keeps its key table (no resizing as the entry fills), and
        // the keys are interned strings whose hashes are known.
        let meta = base.copy()?;
        meta.set_item(k_index, index)?;
        meta.set_item(k_truth, &block.ground_truth[k])?;
        for (j, (name, spec)) in names.iter().zip(specs).enumerate() {
            let v = block.metrics[k * width + j];
            match spec.kind {
                MetricKind::U32 => meta.set_item(name, v as u64)?,
                MetricKind::F32 => meta.set_item(name, v)?,
            }
        }
        if traced {
            meta.set_item(k_trace, &block.trace[k])?;
        }
        if imaged {
            meta.set_item(k_image, PyBytes::new(py, &block.image[k]))?;
        }
        meta.set_item(k_difficulty, difficulty.copy()?)?;
        let entry = PyDict::new(py);
        entry.set_item(k_question, &block.question[k])?;
        entry.set_item(k_answer, &block.answer[k])?;
        entry.set_item(k_metadata, meta)?;
        entries.append(entry)?;
    }
    Ok((entries, block.failed))
}

/// Checks the task configuration `config_json` and builds its generator (kept for the items
/// that follow): `ValueError` with a one-line message naming the key when the spec cannot be
/// met, before any item is made.
#[pyfunction]
pub fn task_validate(py: Python<'_>, config_json: &str) -> PyResult<()> {
    py.detach(|| generator(config_json).map(|_| ()))
        .map_err(PyValueError::new_err)
}

/// The metric names of the task configuration `config_json`, in the order items carry them.
#[pyfunction]
pub fn task_metric_names(py: Python<'_>, config_json: &str) -> PyResult<Vec<&'static str>> {
    let cached = py
        .detach(|| generator(config_json))
        .map_err(PyValueError::new_err)?;
    Ok(cached.generator.metrics().iter().map(|m| m.name).collect())
}

/// The task names (`maze-steps`, ...).
#[pyfunction]
pub fn task_names() -> Vec<&'static str> {
    TaskName::ALL.iter().map(|t| t.name()).collect()
}

/// The task called `name`, or a `ValueError` listing the names.
fn task_named(name: &str) -> PyResult<TaskName> {
    TaskName::from_name(name).ok_or_else(|| {
        PyValueError::new_err(format!(
            "task `{name}` is not one of {}",
            task_names().join(", ")
        ))
    })
}

/// An answer as UTF-8 bytes, or None for what scores 0 unread: not a `str`, longer than the
/// scorers read, or not encodable (lone surrogates).
fn answer_utf8<'py>(a: &Bound<'py, PyAny>) -> Option<Bound<'py, PyBytes>> {
    let s = a.cast::<PyString>().ok()?;
    // NOTE: the length in code points bounds the UTF-8 length from below, so an answer over the
    // cap is refused before it is encoded.
    if s.len().ok()? > MAX_ANSWER_BYTES {
        return None;
    }
    s.encode_utf8().ok()
}

/// The ground truth of one entry as UTF-8 bytes: the string itself, a reasoning-gym item's
/// `metadata["ground_truth"]`, a verl `reward_model`'s `ground_truth`, or a verl row's
/// `reward_model["ground_truth"]`.
fn entry_utf8<'py>(
    py: Python<'py>,
    e: &Bound<'py, PyAny>,
    at: usize,
) -> PyResult<Bound<'py, PyBytes>> {
    let bad = |what: &str| {
        PyValueError::new_err(format!(
            "entries[{at}] {what}: expected a ground-truth string, a dict with \
             metadata.ground_truth (reasoning-gym) or with ground_truth (verl's reward_model)"
        ))
    };
    if let Ok(s) = e.cast::<PyString>() {
        return s.encode_utf8().map_err(|_| bad("is not valid unicode"));
    }
    let Ok(d) = e.cast::<PyDict>() else {
        return Err(bad(&format!("is a {}", e.get_type().name()?)));
    };
    let mut holder = d.clone();
    for key in [
        pyo3::intern!(py, "metadata"),
        pyo3::intern!(py, "reward_model"),
    ] {
        if let Some(inner) = d.get_item(key)?
            && let Ok(inner) = inner.cast_into::<PyDict>()
        {
            holder = inner;
            break;
        }
    }
    match holder.get_item(pyo3::intern!(py, "ground_truth"))? {
        Some(t) => match t.cast_into::<PyString>() {
            Ok(s) => s
                .encode_utf8()
                .map_err(|_| bad("has a ground_truth that is not valid unicode")),
            Err(_) => Err(bad("has a ground_truth that is not a string")),
        },
        None => Err(bad("is a dict without ground_truth")),
    }
}

/// The text of bytes CPython encoded as UTF-8 (checked all the same: no `unsafe` for a few
/// nanoseconds).
fn text<'a>(b: &'a Bound<'_, PyBytes>) -> &'a str {
    std::str::from_utf8(b.as_bytes()).unwrap_or("")
}

/// The items of a list (or any iterable but a string) as owned references.
fn items_of<'py>(seq: &Bound<'py, PyAny>, what: &str) -> PyResult<Vec<Bound<'py, PyAny>>> {
    if seq.is_instance_of::<PyString>() {
        return Err(PyValueError::new_err(format!(
            "{what} is one string: pass a list of them"
        )));
    }
    if let Ok(list) = seq.cast::<PyList>() {
        return Ok(list.iter().collect());
    }
    seq.try_iter()
        .map_err(|_| {
            PyValueError::new_err(format!(
                "{what} is a {}, not a list",
                seq.get_type()
                    .name()
                    .map(|n| n.to_string())
                    .unwrap_or_default()
            ))
        })?
        .collect()
}

/// The scores of `answers` (anything; a non-string scores 0) against `entries` (ground-truth
/// strings, reasoning-gym items, or verl `reward_model` dicts), one float in [0, 1] each, by the
/// scorer of `task` (None: the task each ground truth names). Strings are read with the
/// interpreter held, then scored with it released. Raises `ValueError` for an unknown task,
/// lists of different lengths, or an entry with no ground truth; never for an answer.
#[pyfunction]
#[pyo3(signature = (task, answers, entries))]
pub fn score(
    py: Python<'_>,
    task: Option<&str>,
    answers: &Bound<'_, PyAny>,
    entries: &Bound<'_, PyAny>,
) -> PyResult<Vec<f64>> {
    let task = task.map(task_named).transpose()?;
    let answers = items_of(answers, "answers")?;
    let entries = items_of(entries, "entries")?;
    if answers.len() != entries.len() {
        return Err(PyValueError::new_err(format!(
            "{} answers for {} entries: pass one answer per entry",
            answers.len(),
            entries.len()
        )));
    }
    // PERF: the encoded bytes are borrowed, not copied, while Rust scores with the GIL released:
    // this thread holds a reference to each (immutable) bytes object until the scores are back.
    let answers: Vec<Option<Bound<'_, PyBytes>>> = answers.iter().map(answer_utf8).collect();
    let truths = entries
        .iter()
        .enumerate()
        .map(|(i, e)| entry_utf8(py, e, i))
        .collect::<PyResult<Vec<_>>>()?;
    let texts: Vec<Option<&str>> = answers.iter().map(|a| a.as_ref().map(text)).collect();
    let truths: Vec<&str> = truths.iter().map(text).collect();
    Ok(py.detach(|| {
        texts
            .iter()
            .zip(&truths)
            .map(|(a, t)| match (a, task) {
                (None, _) => 0.0,
                (Some(a), Some(task)) => warren::task::score_task(task, a, t),
                (Some(a), None) => warren::task::score(a, t),
            })
            .collect()
    }))
}

/// Adds the task functions to the native module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(task_items, m)?)?;
    m.add_function(wrap_pyfunction!(task_entries, m)?)?;
    m.add_function(wrap_pyfunction!(task_validate, m)?)?;
    m.add_function(wrap_pyfunction!(task_metric_names, m)?)?;
    m.add_function(wrap_pyfunction!(task_names, m)?)?;
    m.add_function(wrap_pyfunction!(score, m)?)?;
    Ok(())
}
