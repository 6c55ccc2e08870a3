//! Tests of the Matrix Market reader: banners, symmetries and fields, vertex numbering, and every
//! error with its place.

use super::*;

const BANNER: &str = "%%MatrixMarket matrix coordinate";

fn parse_text(text: &str) -> Result<EdgeList, GraphReadError> {
    parse(text.as_bytes(), Path::new("g.mtx"))
}

/// The error message of `text`, which must fail.
fn message(text: &str) -> String {
    match parse_text(text) {
        Ok(list) => panic!("{text:?} parsed: {list:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_general_matrix_keeps_one_edge_per_pair() {
    let text = format!(
        "{BANNER} pattern general\n% a comment\n%\n4 5 6\n1 2\n2 1\n3 3\n  2\t4\n\n1 2\n4 5\n"
    );
    let list = parse_text(&text).unwrap();
    assert_eq!(list.ids, VertexIds::Numbers(vec![1, 2, 3, 4, 5]));
    assert_eq!((list.src, list.dst), (vec![0, 1, 3], vec![1, 3, 4]));
    assert_eq!(list.self_loops, 1);
}

#[test]
fn symmetric_entries_are_each_an_edge_and_isolated_vertices_come_last() {
    let text = format!("{BANNER} real symmetric\n6 6 3\n5 2 1.5\n2 1 -2e3\n6 5 .5\n");
    let list = parse_text(&text).unwrap();
    assert_eq!(list.ids, VertexIds::Numbers(vec![5, 2, 1, 6, 3, 4]));
    assert_eq!((list.src, list.dst), (vec![0, 1, 3], vec![1, 2, 0]));
    let text = format!("{BANNER} integer skew-symmetric\n3 3 3\n2 1 7\n2 1 -1\n3 2 +4\n");
    assert_eq!(parse_text(&text).unwrap().edge_count(), 3);
}

#[test]
fn keywords_in_any_case_crlf_and_rectangular_matrices() {
    let text = "%%matrixmarket MATRIX Coordinate Complex Hermitian\r\n2 3 1\r\n1 3 1.0 -2.5\r\n";
    let list = parse_text(text).unwrap();
    assert_eq!(list.ids, VertexIds::Numbers(vec![1, 3, 2]));
    assert_eq!((list.src, list.dst), (vec![0], vec![1]));
}

#[test]
fn an_empty_matrix_has_only_isolated_vertices() {
    let list = parse_text(&format!("{BANNER} pattern general\n3 2 0\n")).unwrap();
    assert_eq!(list.ids, VertexIds::Numbers(vec![1, 2, 3]));
    assert_eq!(list.edge_count(), 0);
}

#[test]
fn a_bad_banner_names_the_word_at_fault() {
    let cases = [
        (
            "%MatrixMarket matrix coordinate pattern general\n",
            r#"1:1: expected the banner `%%MatrixMarket`, found "%MatrixMarket""#,
        ),
        (
            "",
            "1:1: expected the banner `%%MatrixMarket`, found end of line",
        ),
        (
            "%%MatrixMarket vector coordinate real general\n",
            r#"1:16: expected `matrix`, found "vector""#,
        ),
        (
            "%%MatrixMarket matrix array real general\n",
            "1:23: expected `coordinate` (a sparse matrix; dense `array` files are not read), \
             found \"array\"",
        ),
        (
            "%%MatrixMarket matrix coordinate double general\n",
            "1:34: expected a field: `pattern`, `integer`, `real` or `complex`, found \"double\"",
        ),
        (
            "%%MatrixMarket matrix coordinate real upper\n",
            "1:39: expected a symmetry: `general`, `symmetric`, `skew-symmetric` or `hermitian`, \
             found \"upper\"",
        ),
        (
            "%%MatrixMarket matrix coordinate real",
            "1:38: expected a symmetry: `general`, `symmetric`, `skew-symmetric` or `hermitian`, \
             found end of line",
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(message(text), format!("g.mtx:{expected}"), "{text:?}");
    }
}

#[test]
fn a_bad_size_line_is_refused_before_any_allocation() {
    let cases = [
        (
            "% c\n",
            "3:1: expected the size line `ROWS COLUMNS ENTRIES`, found end of file",
        ),
        (
            "1000000000 5 3\n",
            r#"2:1: expected a row count of at most 16777216, found "1000000000""#,
        ),
        (
            "3 1000000000 3\n",
            r#"2:3: expected a column count of at most 16777216, found "1000000000""#,
        ),
        (
            "3 3 99999999\n",
            r#"2:5: expected an entry count of at most 16777216, found "99999999""#,
        ),
        (
            "2 2 5\n",
            r#"2:5: expected an entry count of at most 4 (ROWS x COLUMNS), found "5""#,
        ),
        (
            "3 x 2\n",
            r#"2:3: expected a column count (a non-negative integer), found "x""#,
        ),
        ("3 3", "2:4: expected an entry count, found end of line"),
    ];
    for (size, expected) in cases {
        let text = format!("{BANNER} pattern general\n{size}");
        assert_eq!(message(&text), format!("g.mtx:{expected}"), "{size:?}");
    }
}

#[test]
fn bad_entries_name_line_and_column() {
    let cases = [
        (
            "pattern",
            "3 3 1\n0 1",
            r#"3:1: expected a row index from 1 to 3, found "0""#,
        ),
        (
            "pattern",
            "3 2 1\n1 3",
            r#"3:3: expected a column index from 1 to 2, found "3""#,
        ),
        (
            "pattern",
            "3 3 1\n1.5 2",
            r#"3:1: expected a row index from 1 to 3, found "1.5""#,
        ),
        (
            "pattern",
            "3 3 1\n1",
            "3:2: expected a column index from 1 to 3, found end of line",
        ),
        (
            "real",
            "3 3 1\n1 2",
            "3:4: expected a real value, found end of line",
        ),
        (
            "integer",
            "3 3 1\n1 2 1.5",
            r#"3:5: expected an integer value, found "1.5""#,
        ),
        (
            "complex",
            "3 3 1\n1 2 1.0",
            "3:8: expected the imaginary part of a complex value, found end of line",
        ),
        (
            "pattern",
            "3 3 3\n1 2\n2 3\n",
            "5:1: expected 3 entries as the size line announces, found end of file after 2",
        ),
        (
            "pattern",
            "3 3 1\n1 2\n2 3\n",
            r#"4:1: expected end of file (the size line announces 1 entries), found "2""#,
        ),
    ];
    for (field, body, expected) in cases {
        let text = format!("{BANNER} {field} general\n{body}");
        assert_eq!(message(&text), format!("g.mtx:{expected}"), "{body:?}");
    }
}

#[test]
fn limits_are_parameters() {
    let text = format!("{BANNER} pattern general\n3 3 2\n1 2\n2 3\n");
    let path = Path::new("g.mtx");
    assert!(parse_with_limits(text.as_bytes(), path, 3, 2).is_ok());
    let e = parse_with_limits(text.as_bytes(), path, 2, 2).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("g.mtx:2:1: expected a row count of at most 2"),
        "{e}"
    );
    let e = parse_with_limits(text.as_bytes(), path, 3, 1).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("g.mtx:2:5: expected an entry count of at most 1"),
        "{e}"
    );
}

#[test]
fn every_truncation_is_an_answer_not_a_panic() {
    let text =
        format!("{BANNER} complex general\n% c\n4 4 4\n1 2 0.5 1\n2 3 1e2 -1\n4 4 0 0\n3 1 1 1\n");
    for end in 0..=text.len() {
        if let Err(e) = parse(&text.as_bytes()[..end], Path::new("g.mtx")) {
            assert!(e.to_string().starts_with("g.mtx:"), "{end}: {e}");
        }
    }
}
