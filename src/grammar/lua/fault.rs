//! What went wrong where in a demirogue ruleset ([`super`]), as the lexer and the parser
//! report it before the fault knows its source and rule.

use crate::grammar::rule::{Diagnostic, Pos, Severity};

/// What went wrong where, before it knows its source and rule.
#[derive(Debug)]
pub(super) struct Fault {
    pub(super) at: Pos,
    pub(super) vertex: Option<String>,
    pub(super) message: String,
}

impl Fault {
    pub(super) fn new(at: Pos, message: impl Into<String>) -> Self {
        Self {
            at,
            vertex: None,
            message: message.into(),
        }
    }

    pub(super) fn into_diagnostic(self, source: &str, rule: Option<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            source: source.to_string(),
            rule,
            vertex: self.vertex,
            at: self.at,
            message: self.message,
        }
    }
}
