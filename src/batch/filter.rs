//! `--where` filters: a small expression language over a kind's metric columns, compiled once
//! against the columns and evaluated per level on the worker that made it (DESIGN.md, "Data
//! flow": selection happens before a level reaches its record batch).
//!
//! ```text
//! expr    := or
//! or      := and ("or" and)*
//! and     := not ("and" not)*
//! not     := "not" not | compare
//! compare := sum (("<" | "<=" | ">" | ">=" | "==" | "!=") sum)?
//! sum     := product (("+" | "-") product)*
//! product := unary (("*" | "/") unary)*
//! unary   := "-" unary | NUMBER | COLUMN | "(" expr ")"
//! ```
//!
//! `solution_length >= 120 and dead_ends < 150`, `dead_ends / rooms < 0.1 or not loops == 0`.
//! Numbers are `f64`; a column reads the value as its archive column stores it (a `u32`, or an
//! `f32` widened), so a filter checked again on the archive (pyarrow, polars) keeps exactly the
//! same rows. A filter must be a condition: `rooms + 1` alone, or `rooms and loops`, is refused
//! when compiled, naming the column of the expression at fault.

use std::fmt;

use crate::core::generator::{MetricKind, MetricSpec};

/// A `--where` expression that does not compile.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("--where {expr:?}, column {col}: {message}")]
pub struct FilterError {
    /// The expression as given.
    pub expr: String,
    /// Column (in characters, from 1) of the token at fault.
    pub col: usize,
    /// What was wrong and what was expected.
    pub message: String,
}

/// A compiled `--where` filter.
#[derive(Clone, Debug, PartialEq)]
pub struct Filter {
    text: String,
    root: Node,
    kinds: Vec<MetricKind>,
}

#[derive(Clone, Debug, PartialEq)]
enum Node {
    Num(f64),
    Col(usize),
    Neg(Box<Node>),
    Arith(Arith, Box<Node>, Box<Node>),
    Cmp(Cmp, Box<Node>, Box<Node>),
    Not(Box<Node>),
    And(Box<Node>, Box<Node>),
    Or(Box<Node>, Box<Node>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Arith {
    Add,
    Sub,
    Mul,
    Div,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cmp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Num(f64),
    Ident(String),
    Op(&'static str),
    Open,
    Close,
    End,
}

impl fmt::Display for Tok {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Num(n) => write!(f, "number {n}"),
            Tok::Ident(s) => write!(f, "`{s}`"),
            Tok::Op(op) => write!(f, "`{op}`"),
            Tok::Open => f.write_str("`(`"),
            Tok::Close => f.write_str("`)`"),
            Tok::End => f.write_str("the end"),
        }
    }
}

/// Whether a node yields a number or a condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Type {
    Number,
    Condition,
}

/// Longest expression accepted (a filter is a line, not a program).
const MAX_LEN: usize = 4096;
/// Deepest nesting accepted (parentheses, `not`, minus signs).
const MAX_DEPTH: usize = 64;

struct Parser<'a> {
    expr: &'a str,
    toks: Vec<(Tok, usize)>,
    at: usize,
    columns: &'a [MetricSpec],
    depth: usize,
}

impl Filter {
    /// Compiles `expr` against the metric `columns` of a kind.
    ///
    /// # Errors
    /// A token that is not part of the language, an unknown column (the message lists the
    /// known ones), a misplaced operator, or an expression that is not a condition; the error
    /// names the column of the expression at fault.
    pub fn compile(expr: &str, columns: &[MetricSpec]) -> Result<Filter, FilterError> {
        let fail = |col: usize, message: String| FilterError {
            expr: expr.to_string(),
            col,
            message,
        };
        if expr.len() > MAX_LEN {
            return Err(fail(1, format!("longer than {MAX_LEN} bytes")));
        }
        let toks = tokenize(expr).map_err(|(col, m)| fail(col, m))?;
        let mut parser = Parser {
            expr,
            toks,
            at: 0,
            columns,
            depth: 0,
        };
        let (root, ty, col) = parser.or()?;
        let (tok, end) = parser.peek();
        if *tok != Tok::End {
            return Err(fail(
                end,
                format!("expected an operator or the end, found {tok}"),
            ));
        }
        if ty != Type::Condition {
            return Err(fail(
                col,
                "this is a number, not a condition: compare it (`>=`, `<`, `==`, ...)".into(),
            ));
        }
        Ok(Filter {
            text: expr.trim().to_string(),
            root,
            kinds: columns.iter().map(|c| c.kind).collect(),
        })
    }

    /// The expression as given (trimmed).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whether a level with metric row `metrics` (in column order, as a level carries them)
    /// passes; each value is first rounded to its column's stored type.
    pub fn passes(&self, metrics: &[f64]) -> bool {
        self.condition(&self.root, metrics)
    }

    fn value(&self, node: &Node, metrics: &[f64]) -> f64 {
        match node {
            Node::Num(n) => *n,
            Node::Col(i) => {
                let v = metrics.get(*i).copied().unwrap_or(f64::NAN);
                match self.kinds[*i] {
                    MetricKind::U32 => f64::from(v as u32),
                    MetricKind::F32 => f64::from(v as f32),
                }
            }
            Node::Neg(a) => -self.value(a, metrics),
            Node::Arith(op, a, b) => {
                let (a, b) = (self.value(a, metrics), self.value(b, metrics));
                match op {
                    Arith::Add => a + b,
                    Arith::Sub => a - b,
                    Arith::Mul => a * b,
                    Arith::Div => a / b,
                }
            }
            _ => unreachable!("type-checked when compiled"),
        }
    }

    fn condition(&self, node: &Node, metrics: &[f64]) -> bool {
        match node {
            Node::Cmp(op, a, b) => {
                let (a, b) = (self.value(a, metrics), self.value(b, metrics));
                match op {
                    Cmp::Lt => a < b,
                    Cmp::Le => a <= b,
                    Cmp::Gt => a > b,
                    Cmp::Ge => a >= b,
                    Cmp::Eq => a == b,
                    Cmp::Ne => a != b,
                }
            }
            Node::Not(a) => !self.condition(a, metrics),
            Node::And(a, b) => self.condition(a, metrics) && self.condition(b, metrics),
            Node::Or(a, b) => self.condition(a, metrics) || self.condition(b, metrics),
            _ => unreachable!("type-checked when compiled"),
        }
    }
}

/// The tokens of `expr`, each with its column (in characters, from 1).
fn tokenize(expr: &str) -> Result<Vec<(Tok, usize)>, (usize, String)> {
    let chars: Vec<char> = expr.chars().collect();
    let mut toks = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let col = i + 1;
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if c.is_ascii_digit() || (c == '.' && chars.get(i + 1).is_some_and(char::is_ascii_digit)) {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '.') {
                let exp = matches!(chars[i], 'e' | 'E');
                i += 1;
                if exp && i < chars.len() && matches!(chars[i], '+' | '-') {
                    i += 1;
                }
            }
            let text: String = chars[start..i].iter().collect();
            let n: f64 = text
                .parse()
                .map_err(|_| (col, format!("`{text}` is not a number")))?;
            toks.push((Tok::Num(n), col));
            continue;
        }
        if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            toks.push((Tok::Ident(chars[start..i].iter().collect()), col));
            continue;
        }
        let two: String = chars[i..(i + 2).min(chars.len())].iter().collect();
        let op = match two.as_str() {
            "<=" | ">=" | "==" | "!=" | "&&" | "||" => Some(two.as_str()),
            _ => None,
        };
        let (tok, len) = match (op, c) {
            (Some("&&"), _) => (Tok::Ident("and".into()), 2),
            (Some("||"), _) => (Tok::Ident("or".into()), 2),
            (Some("<="), _) => (Tok::Op("<="), 2),
            (Some(">="), _) => (Tok::Op(">="), 2),
            (Some("=="), _) => (Tok::Op("=="), 2),
            (Some("!="), _) => (Tok::Op("!="), 2),
            (_, '<') => (Tok::Op("<"), 1),
            (_, '>') => (Tok::Op(">"), 1),
            (_, '+') => (Tok::Op("+"), 1),
            (_, '-') => (Tok::Op("-"), 1),
            (_, '*') => (Tok::Op("*"), 1),
            (_, '/') => (Tok::Op("/"), 1),
            (_, '!') => (Tok::Ident("not".into()), 1),
            (_, '(') => (Tok::Open, 1),
            (_, ')') => (Tok::Close, 1),
            (_, '=') => return Err((col, "`=` is not an operator: write `==`".into())),
            _ => return Err((col, format!("unexpected character {c:?}"))),
        };
        toks.push((tok, col));
        i += len;
    }
    toks.push((Tok::End, chars.len() + 1));
    Ok(toks)
}

type Parsed = (Node, Type, usize);

impl Parser<'_> {
    fn peek(&self) -> (&Tok, usize) {
        let (tok, col) = &self.toks[self.at];
        (tok, *col)
    }

    fn next(&mut self) -> (Tok, usize) {
        let t = self.toks[self.at].clone();
        if t.0 != Tok::End {
            self.at += 1;
        }
        t
    }

    fn fail(&self, col: usize, message: String) -> FilterError {
        FilterError {
            expr: self.expr.to_string(),
            col,
            message,
        }
    }

    fn keyword(&self, word: &str) -> bool {
        matches!(self.peek().0, Tok::Ident(s) if s == word)
    }

    /// `node` must be of type `want` (`what` names the operator needing it).
    fn expect(&self, parsed: &Parsed, want: Type, what: &str) -> Result<(), FilterError> {
        if parsed.1 == want {
            return Ok(());
        }
        let message = match want {
            Type::Condition => format!("{what} needs a condition here, not a number"),
            Type::Number => format!("{what} needs a number here, not a condition"),
        };
        Err(self.fail(parsed.2, message))
    }

    fn or(&mut self) -> Result<Parsed, FilterError> {
        self.logical("or", Self::and, |a, b| Node::Or(Box::new(a), Box::new(b)))
    }

    fn and(&mut self) -> Result<Parsed, FilterError> {
        self.logical("and", Self::not, |a, b| Node::And(Box::new(a), Box::new(b)))
    }

    /// `operand (word operand)*`, both sides conditions, joined left to right by `join`.
    fn logical(
        &mut self,
        word: &str,
        operand: fn(&mut Self) -> Result<Parsed, FilterError>,
        join: fn(Node, Node) -> Node,
    ) -> Result<Parsed, FilterError> {
        let mut left = operand(self)?;
        let what = format!("`{word}`");
        while self.keyword(word) {
            self.next();
            let right = operand(self)?;
            self.expect(&left, Type::Condition, &what)?;
            self.expect(&right, Type::Condition, &what)?;
            left = (join(left.0, right.0), Type::Condition, left.2);
        }
        Ok(left)
    }

    fn nested(&mut self, col: usize) -> Result<(), FilterError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.fail(col, format!("nested deeper than {MAX_DEPTH}")));
        }
        Ok(())
    }

    fn not(&mut self) -> Result<Parsed, FilterError> {
        if self.keyword("not") {
            let (_, col) = self.next();
            self.nested(col)?;
            let inner = self.not()?;
            self.depth -= 1;
            self.expect(&inner, Type::Condition, "`not`")?;
            return Ok((Node::Not(Box::new(inner.0)), Type::Condition, col));
        }
        self.compare()
    }

    fn compare(&mut self) -> Result<Parsed, FilterError> {
        let left = self.sum()?;
        let op = match self.peek().0 {
            Tok::Op("<") => Cmp::Lt,
            Tok::Op("<=") => Cmp::Le,
            Tok::Op(">") => Cmp::Gt,
            Tok::Op(">=") => Cmp::Ge,
            Tok::Op("==") => Cmp::Eq,
            Tok::Op("!=") => Cmp::Ne,
            _ => return Ok(left),
        };
        let (tok, col) = self.next();
        let right = self.sum()?;
        self.expect(&left, Type::Number, &tok.to_string())?;
        self.expect(&right, Type::Number, &tok.to_string())?;
        if matches!(
            self.peek().0,
            Tok::Op("<" | "<=" | ">" | ">=" | "==" | "!=")
        ) {
            let (tok, at) = self.peek();
            let message = format!("{tok} cannot follow a comparison: join two with `and`");
            return Err(self.fail(at, message));
        }
        Ok((
            Node::Cmp(op, Box::new(left.0), Box::new(right.0)),
            Type::Condition,
            col,
        ))
    }

    fn sum(&mut self) -> Result<Parsed, FilterError> {
        let mut left = self.product()?;
        loop {
            let op = match self.peek().0 {
                Tok::Op("+") => Arith::Add,
                Tok::Op("-") => Arith::Sub,
                _ => return Ok(left),
            };
            left = self.arith(left, op, Self::product)?;
        }
    }

    fn product(&mut self) -> Result<Parsed, FilterError> {
        let mut left = self.unary()?;
        loop {
            let op = match self.peek().0 {
                Tok::Op("*") => Arith::Mul,
                Tok::Op("/") => Arith::Div,
                _ => return Ok(left),
            };
            left = self.arith(left, op, Self::unary)?;
        }
    }

    /// `left op right`, `right` parsed by `operand`.
    fn arith(
        &mut self,
        left: Parsed,
        op: Arith,
        operand: fn(&mut Self) -> Result<Parsed, FilterError>,
    ) -> Result<Parsed, FilterError> {
        let (tok, _) = self.next();
        let right = operand(self)?;
        self.expect(&left, Type::Number, &tok.to_string())?;
        self.expect(&right, Type::Number, &tok.to_string())?;
        Ok((
            Node::Arith(op, Box::new(left.0), Box::new(right.0)),
            Type::Number,
            left.2,
        ))
    }

    fn unary(&mut self) -> Result<Parsed, FilterError> {
        let (tok, col) = self.next();
        match tok {
            Tok::Num(n) => Ok((Node::Num(n), Type::Number, col)),
            Tok::Op("-") => {
                self.nested(col)?;
                let inner = self.unary()?;
                self.depth -= 1;
                self.expect(&inner, Type::Number, "`-`")?;
                Ok((Node::Neg(Box::new(inner.0)), Type::Number, col))
            }
            Tok::Open => {
                self.nested(col)?;
                let inner = self.or()?;
                self.depth -= 1;
                let (close, at) = self.next();
                if close != Tok::Close {
                    return Err(self.fail(at, format!("expected `)`, found {close}")));
                }
                Ok((inner.0, inner.1, col))
            }
            Tok::Ident(name) if !matches!(name.as_str(), "and" | "or" | "not") => {
                match self.columns.iter().position(|c| c.name == name) {
                    Some(i) => Ok((Node::Col(i), Type::Number, col)),
                    None => {
                        let known: Vec<&str> = self.columns.iter().map(|c| c.name).collect();
                        Err(self.fail(
                            col,
                            format!(
                                "no metric column `{name}`; this kind has: {}",
                                known.join(", ")
                            ),
                        ))
                    }
                }
            }
            other => Err(self.fail(
                col,
                format!("expected a number, a column or `(`, found {other}"),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const COLUMNS: [MetricSpec; 3] = [
        MetricSpec::u32("solution_length", ""),
        MetricSpec::u32("dead_ends", ""),
        MetricSpec::f32("ratio", ""),
    ];

    fn passes(expr: &str, row: [f64; 3]) -> bool {
        Filter::compile(expr, &COLUMNS).unwrap().passes(&row)
    }

    fn error(expr: &str) -> FilterError {
        Filter::compile(expr, &COLUMNS).unwrap_err()
    }

    #[test]
    fn the_issue_example_keeps_only_passing_rows() {
        let e = "solution_length >= 120 and dead_ends < 150";
        assert!(passes(e, [120.0, 149.0, 0.0]));
        assert!(!passes(e, [119.0, 10.0, 0.0]));
        assert!(!passes(e, [200.0, 150.0, 0.0]));
    }

    #[test]
    fn precedence_and_arithmetic() {
        // `and` binds tighter than `or`; `*` tighter than `+`.
        assert!(passes(
            "dead_ends == 1 or dead_ends == 2 and ratio > 9",
            [0.0, 1.0, 0.0]
        ));
        assert!(!passes(
            "(dead_ends == 1 or dead_ends == 2) and ratio > 9",
            [0.0, 1.0, 0.0]
        ));
        assert!(passes("1 + 2 * 3 == 7", [0.0; 3]));
        assert!(passes(
            "-dead_ends + 10 == 7 && !(ratio != 0.5)",
            [0.0, 3.0, 0.5]
        ));
        assert!(passes(
            "dead_ends / solution_length < 0.1",
            [100.0, 9.0, 0.0]
        ));
        assert!(passes("not not 1e2 == 100", [0.0; 3]));
    }

    #[test]
    fn columns_read_their_stored_type() {
        // 0.1 as f32 is not 0.1 as f64: the filter sees what the archive stores.
        assert!(!passes("ratio == 0.1", [0.0, 0.0, 0.1]));
        assert!(passes("ratio > 0.1", [0.0, 0.0, 0.1]));
        // A u32 column stores a truncated value.
        assert!(passes("dead_ends == 3", [0.0, 3.7, 0.0]));
    }

    #[test]
    fn errors_name_the_column_at_fault() {
        let e = error("solution_lenght >= 120");
        assert_eq!(e.col, 1);
        assert!(
            e.message.contains("no metric column `solution_lenght`"),
            "{e}"
        );
        assert!(
            e.message.contains("solution_length, dead_ends, ratio"),
            "{e}"
        );
        assert_eq!(error("dead_ends = 3").col, 11);
        assert_eq!(error("dead_ends < 3 and").col, 18);
        assert!(error("dead_ends + 1").message.contains("not a condition"));
        assert_eq!(error("dead_ends and ratio > 1").col, 1);
        assert_eq!(error("1 < dead_ends < 3").col, 15);
        assert_eq!(error("(dead_ends > 1").col, 15);
        assert_eq!(error("dead_ends > 1)").col, 14);
        assert_eq!(error("dead_ends > 1 # x").col, 15);
        assert_eq!(error("dead_ends > 1.2.3").col, 13);
        assert_eq!(
            error("").message,
            "expected a number, a column or `(`, found the end"
        );
        let shown = error("x > 1").to_string();
        assert!(
            shown.starts_with("--where \"x > 1\", column 1: no metric column"),
            "{shown}"
        );
    }

    #[test]
    fn hostile_input_is_refused_not_overflowed() {
        let deep = format!("{}1 == 1{}", "(".repeat(100), ")".repeat(100));
        assert!(error(&deep).message.contains("nested deeper"));
        let nots = format!("{}1 == 1", "not ".repeat(1000));
        assert!(error(&nots).message.contains("nested deeper"));
        assert!(error(&"1".repeat(5000)).message.contains("longer than"));
    }

    #[test]
    fn random_text_never_panics() {
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        runner
            .run(&"[a-z_ 0-9.()<>=!&|+*/-]{0,40}", |s| {
                if let Ok(f) = Filter::compile(&s, &COLUMNS) {
                    let _ = f.passes(&[1.0, 2.0, 3.0]);
                }
                Ok(())
            })
            .unwrap();
    }
}
