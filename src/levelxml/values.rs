//! `<values>` evaluated as the game evaluates them (seed 002's "Values", with the loader's real
//! behaviour from the corpus notes): lazy, integer-only, one shared name space.
//!
//! A name is looked up as: `""` is 0; a leading integer (C's `stoi`) is that number; the reserved
//! `V`, `E`, `vertices`, `edges`; then values (the last of a name wins), color names (packed
//! RGBA as a signed 32-bit integer), edge ids and vertex ids (their 0-based positions).
//!
//! Where the game crashes or never ends, this evaluator stops with an error naming the element:
//! division by zero, undefined names, values that need themselves, include cycles and missing
//! include files, a list where a number is expected (and the reverse), and 64-bit overflow (the
//! game's `int` overflow is undefined behaviour). The game re-evaluates a value at every use;
//! since a value's result depends only on the graph, results are cached here, which changes
//! nothing but the running time.

use std::collections::HashMap;
use std::path::PathBuf;
use std::rc::Rc;

use crate::levelxml::error::{EvalError, EvalErrorKind, Pos};
use crate::levelxml::graph::ResolvedGraph;
use crate::levelxml::model::{LevelDoc, Op, ValueNode};
use crate::levelxml::parse::{ParsedLevel, SourceMap, read_level};

/// A value: a number, or a list (of vertex or edge indices, or results of list operations).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// An integer.
    Int(i64),
    /// A list of integers.
    List(Rc<[i64]>),
}

/// Where `<include file="X">` finds `X.xml`.
pub trait IncludeLoader {
    /// Loads the file named by an include's `file` attribute; returns a key identifying the
    /// file (for cycle detection) and the parsed file.
    fn load(&self, file: &str) -> Result<(String, ParsedLevel), EvalErrorKind>;
}

/// Includes from a levels folder: `X` is `<root>/X.xml`, as in the game (relative to the levels
/// root, not to the including file).
#[derive(Clone, Debug)]
pub struct FolderIncludes {
    /// The levels root.
    pub root: PathBuf,
}

impl IncludeLoader for FolderIncludes {
    fn load(&self, file: &str) -> Result<(String, ParsedLevel), EvalErrorKind> {
        let path = self.root.join(format!("{file}.xml"));
        if !path.is_file() {
            return Err(EvalErrorKind::IncludeMissing {
                path: path.display().to_string(),
            });
        }
        let key = path
            .canonicalize()
            .unwrap_or_else(|_| path.clone())
            .display()
            .to_string();
        let parsed =
            read_level(&path).map_err(|e| EvalErrorKind::IncludeInvalid { error: Box::new(e) })?;
        Ok((key, parsed))
    }
}

/// Longest chain of values needing values evaluated (each link is a few stack frames; far more
/// than any level needs, far less than the stack holds).
const MAX_CHAIN: usize = 256;

/// Most value nodes includes may expand to (files that include the next one twice grow
/// exponentially without ever forming a cycle).
const MAX_EXPANDED: usize = 100_000;

/// A value node with its place.
struct Node {
    node: ValueNode,
    at: Option<(String, Pos)>,
}

/// Flattens includes into one list of nodes, in order.
fn expand(
    values: &[ValueNode],
    map: Option<&SourceMap>,
    loader: Option<&dyn IncludeLoader>,
    chain: &mut Vec<String>,
    out: &mut Vec<Node>,
) -> Result<(), EvalError> {
    for (i, v) in values.iter().enumerate() {
        let at = map.and_then(|m| m.values.get(i).map(|&p| (m.file.clone(), p)));
        match v {
            ValueNode::Include { file } => {
                let fail = |kind| EvalError {
                    at: at.clone(),
                    kind,
                };
                let Some(loader) = loader else {
                    return Err(fail(EvalErrorKind::IncludeMissing {
                        path: format!("{file}.xml (no levels folder to read includes from)"),
                    }));
                };
                let (key, parsed) = loader.load(file).map_err(fail)?;
                if let Some(first) = chain.iter().position(|k| *k == key) {
                    let mut cycle = chain[first..].to_vec();
                    cycle.push(key);
                    return Err(fail(EvalErrorKind::IncludeCycle { chain: cycle }));
                }
                if chain.len() >= MAX_CHAIN || out.len() >= MAX_EXPANDED {
                    return Err(fail(EvalErrorKind::TooDeep {
                        what: "includes",
                        limit: if chain.len() >= MAX_CHAIN {
                            MAX_CHAIN
                        } else {
                            MAX_EXPANDED
                        },
                    }));
                }
                chain.push(key);
                expand(
                    &parsed.doc.values,
                    Some(&parsed.map),
                    Some(loader),
                    chain,
                    out,
                )?;
                chain.pop();
            }
            ValueNode::Comment { .. } => {}
            _ => out.push(Node {
                node: v.clone(),
                at,
            }),
        }
    }
    Ok(())
}

/// Evaluation state over one level's values.
pub struct Values<'a> {
    graph: &'a ResolvedGraph,
    nodes: Vec<Node>,
    by_name: HashMap<String, usize>,
    colors: HashMap<&'a str, i64>,
    edge_ids: HashMap<&'a str, i64>,
    vertex_ids: HashMap<&'a str, i64>,
    memo: Vec<Option<Value>>,
    active: Vec<usize>,
}

impl<'a> Values<'a> {
    /// Prepares `doc`'s values over `graph`, expanding includes with `loader`.
    pub fn new(
        doc: &'a LevelDoc,
        graph: &'a ResolvedGraph,
        map: Option<&SourceMap>,
        loader: Option<&dyn IncludeLoader>,
    ) -> Result<Self, EvalError> {
        let mut nodes = Vec::new();
        expand(&doc.values, map, loader, &mut Vec::new(), &mut nodes)?;
        let mut by_name = HashMap::new();
        for (i, n) in nodes.iter().enumerate() {
            if let Some(id) = n.node.id() {
                by_name.insert(id.to_string(), i);
            }
        }
        let index_of = |ids: Vec<Option<&'a String>>| {
            ids.into_iter()
                .enumerate()
                .filter_map(|(i, id)| id.map(|id| (id.as_str(), i as i64)))
                .collect()
        };
        Ok(Self {
            graph,
            memo: vec![None; nodes.len()],
            nodes,
            by_name,
            colors: doc
                .colors
                .iter()
                .map(|c| (c.name.as_str(), c.value()))
                .collect(),
            edge_ids: index_of(doc.edges.iter().map(|e| e.id.as_ref()).collect()),
            vertex_ids: index_of(doc.vertices.iter().map(|v| v.id.as_ref()).collect()),
            active: Vec::new(),
        })
    }

    /// Whether a value of this name is defined.
    pub fn defines(&self, name: &str) -> bool {
        self.by_name.contains_key(name)
    }

    /// The value of an expression (a number, a reserved name or a defined name).
    pub fn get(&mut self, expr: &str) -> Result<Value, EvalError> {
        if expr.is_empty() {
            return Ok(Value::Int(0));
        }
        if let Some(n) = crate::levelxml::parse::stoi(expr) {
            return Ok(Value::Int(n));
        }
        if looks_numeric(expr) {
            return Err(EvalError::new(EvalErrorKind::NumberOutOfRange {
                text: expr.to_string(),
            }));
        }
        match expr {
            "V" => return Ok(Value::Int(self.graph.vertex_count() as i64)),
            "E" => return Ok(Value::Int(self.graph.edge_count() as i64)),
            "vertices" => return Ok(Value::List(iota(self.graph.vertex_count()))),
            "edges" => return Ok(Value::List(iota(self.graph.edge_count()))),
            _ => {}
        }
        if let Some(&i) = self.by_name.get(expr) {
            return self.node(i);
        }
        let found = self
            .colors
            .get(expr)
            .or_else(|| self.edge_ids.get(expr))
            .or_else(|| self.vertex_ids.get(expr));
        match found {
            Some(&v) => Ok(Value::Int(v)),
            None => Err(EvalError::new(EvalErrorKind::Undefined {
                name: expr.to_string(),
            })),
        }
    }

    /// The expression as a number.
    pub fn number(&mut self, expr: &str) -> Result<i64, EvalError> {
        match self.get(expr)? {
            Value::Int(v) => Ok(v),
            Value::List(_) => Err(EvalError::new(EvalErrorKind::ListAsNumber {
                name: expr.to_string(),
            })),
        }
    }

    fn list(&mut self, expr: &str) -> Result<Rc<[i64]>, EvalError> {
        match self.get(expr)? {
            Value::List(l) => Ok(l),
            Value::Int(_) => Err(EvalError::new(EvalErrorKind::NumberAsList {
                name: expr.to_string(),
            })),
        }
    }

    fn node(&mut self, i: usize) -> Result<Value, EvalError> {
        if let Some(v) = &self.memo[i] {
            return Ok(v.clone());
        }
        if let Some(first) = self.active.iter().position(|&a| a == i) {
            let mut chain: Vec<String> = self.active[first..]
                .iter()
                .map(|&a| self.nodes[a].node.id().unwrap_or("?").to_string())
                .collect();
            chain.push(chain[0].clone());
            return Err(EvalError {
                at: self.nodes[i].at.clone(),
                kind: EvalErrorKind::SelfReference { chain },
            });
        }
        if self.active.len() >= MAX_CHAIN {
            return Err(EvalError {
                at: self.nodes[i].at.clone(),
                kind: EvalErrorKind::TooDeep {
                    what: "values",
                    limit: MAX_CHAIN,
                },
            });
        }
        self.active.push(i);
        let result = self.compute(i);
        self.active.pop();
        let v = result.map_err(|mut e| {
            if e.at.is_none() {
                e.at = self.nodes[i].at.clone();
            }
            e
        })?;
        self.memo[i] = Some(v.clone());
        Ok(v)
    }

    fn compute(&mut self, i: usize) -> Result<Value, EvalError> {
        let node = self.nodes[i].node.clone();
        let g = self.graph;
        let err = |kind| EvalError::new(kind);
        Ok(match node {
            ValueNode::Var { val, .. } => self.get(&val)?,
            ValueNode::Op {
                id, op, val1, val2, ..
            } => {
                // NOTE: both arguments are always evaluated, as in the game (even for `not`).
                let a = self.number(&val1)?;
                let b = self.number(&val2)?;
                Value::Int(apply(op, a, b, g, &id).map_err(err)?)
            }
            ValueNode::Map { id, op, val } => {
                let list = self.list(&val)?;
                let out: Result<Vec<i64>, _> =
                    list.iter().map(|&x| apply(op, x, 0, g, &id)).collect();
                Value::List(out.map_err(err)?.into())
            }
            ValueNode::Zip { id, op, val1, val2 } => {
                let (a, b) = (self.list(&val1)?, self.list(&val2)?);
                let out: Result<Vec<i64>, _> = a
                    .iter()
                    .zip(b.iter())
                    .map(|(&x, &y)| apply(op, x, y, g, &id))
                    .collect();
                Value::List(out.map_err(err)?.into())
            }
            ValueNode::Fold { id, op, val, start } => {
                let list = self.list(&val)?;
                let mut acc = self.number(&start)?;
                for &x in list.iter() {
                    acc = apply(op, acc, x, g, &id).map_err(err)?;
                }
                Value::Int(acc)
            }
            ValueNode::Include { .. } | ValueNode::Comment { .. } => Value::Int(0),
        })
    }
}

fn iota(n: usize) -> Rc<[i64]> {
    (0..n as i64).collect()
}

/// Whether `s` starts like a number (blanks, a sign, a digit): `stoi` failing on it means the
/// number is out of range, not that it is a name.
fn looks_numeric(s: &str) -> bool {
    let t = s.trim_start();
    let t = t.strip_prefix(['-', '+']).unwrap_or(t);
    t.starts_with(|c: char| c.is_ascii_digit())
}

/// One operation on two integers over the graph.
pub(crate) fn apply(
    op: Op,
    a: i64,
    b: i64,
    g: &ResolvedGraph,
    id: &str,
) -> Result<i64, EvalErrorKind> {
    let overflow = || EvalErrorKind::Overflow { id: id.to_string() };
    let vertex = |op: &'static str, v: i64| -> Result<usize, EvalErrorKind> {
        usize::try_from(v)
            .ok()
            .filter(|&v| v < g.vertex_count())
            .ok_or(EvalErrorKind::NoSuchItem {
                op,
                what: "vertex",
                index: v,
            })
    };
    let edge = |op: &'static str, e: i64| -> Result<usize, EvalErrorKind> {
        usize::try_from(e)
            .ok()
            .filter(|&e| e < g.edge_count())
            .ok_or(EvalErrorKind::NoSuchItem {
                op,
                what: "edge",
                index: e,
            })
    };
    let div_zero = |op| EvalErrorKind::DivisionByZero {
        id: id.to_string(),
        op,
    };
    Ok(match op {
        Op::Min => a.min(b),
        Op::Max => a.max(b),
        Op::Add => a.checked_add(b).ok_or_else(overflow)?,
        Op::Sub => a.checked_sub(b).ok_or_else(overflow)?,
        Op::Mul => a.checked_mul(b).ok_or_else(overflow)?,
        Op::Div if b == 0 => return Err(div_zero("/")),
        Op::Div => a.checked_div(b).ok_or_else(overflow)?,
        Op::Rem if b == 0 => return Err(div_zero("%")),
        Op::Rem => a.checked_rem(b).ok_or_else(overflow)?,
        Op::Eq => i64::from(a == b),
        Op::Ne => i64::from(a != b),
        Op::Lt => i64::from(a < b),
        Op::Gt => i64::from(a > b),
        Op::Le => i64::from(a <= b),
        Op::Ge => i64::from(a >= b),
        Op::And => i64::from(a != 0 && b != 0),
        Op::Or => i64::from(a != 0 || b != 0),
        Op::Not => i64::from(a == 0),
        Op::V1 => i64::from(g.ends[edge("v1", a)?].0),
        Op::V2 => i64::from(g.ends[edge("v2", a)?].1),
        Op::Connected => {
            let n = g.vertex_count() as i64;
            if !(0..n).contains(&a) || !(0..n).contains(&b) {
                0
            } else {
                i64::from(g.adjacent(a as u32, b as u32))
            }
        }
        Op::Degree => i64::from(g.degree[vertex("degree", a)?]),
        Op::VertexColor => g.color_value[g.vertex_color[vertex("vertex-color", a)?] as usize],
        Op::EdgeColor => g.color_value[g.edge_color[edge("edge-color", a)?] as usize],
    })
}
