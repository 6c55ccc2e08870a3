use super::*;
use crate::core::generator::{ExtraSpec, Generator, MetricSpec};
use crate::profile::{GeneratorTask, KINDS, Profile};

/// The columns of a kind's generator, built from its built-in profile.
struct ColumnsOf;

impl GeneratorTask for ColumnsOf {
    type Output = Columns;

    fn run<G: Generator>(self, generator: &G) -> Columns {
        generator.columns()
    }
}

fn columns_of(kind: &str) -> Columns {
    Profile::builtin(kind)
        .expect("a built-in profile")
        .with_generator(ColumnsOf)
        .expect("the built-in generator")
}

#[test]
fn every_kinds_columns_round_trip_through_the_schema() {
    for kind in KINDS {
        let columns = columns_of(kind);
        let metadata = HashMap::from([("warren.generator".to_string(), kind.to_string())]);
        let schema = level_schema(&columns, metadata);
        let read = ArchiveColumns::from_schema(&schema).unwrap_or_else(|e| panic!("{kind}: {e}"));
        assert_eq!(read, ArchiveColumns::from(&columns), "{kind}");
        assert_eq!(read.schema(schema.metadata().clone()), schema, "{kind}");
    }
}

const METRICS: [MetricSpec; 2] = [
    MetricSpec::u32("rooms", "Rooms."),
    MetricSpec::f32("ratio", "A ratio."),
];
const EXTRA: [ExtraSpec; 2] = [
    ExtraSpec::new("tree", ExtraKind::ListU32, "A tree."),
    ExtraSpec::new("xml", ExtraKind::Utf8, "Text."),
];

fn every_part() -> Columns {
    Columns {
        grid: true,
        grid_shape: None,
        graph: true,
        tags: true,
        rooms: true,
        rule_uses: true,
        metrics: &METRICS,
        extra: &EXTRA,
        identity: crate::core::generator::Identity::Grid,
    }
}

#[test]
fn fixed_size_grids_are_tensors_and_read_back() {
    let columns = Columns {
        grid_shape: Some((65, 33)),
        ..every_part()
    };
    let schema = level_schema(&columns, HashMap::new());
    let grid = schema.field_with_name("grid").unwrap();
    assert_eq!(grid.data_type(), &grid_type(Some((65, 33))));
    assert_eq!(
        grid.metadata()
            .get("ARROW:extension:name")
            .map(String::as_str),
        Some(TENSOR_EXTENSION)
    );
    // Shape [rows, columns]: height first, as the cells are stored.
    assert_eq!(
        grid.metadata()["ARROW:extension:metadata"],
        r#"{"shape":[33,65]}"#
    );
    let read = ArchiveColumns::from_schema(&schema).unwrap();
    assert_eq!(read.grid_shape, Some((65, 33)));
    assert!(read.same_layout(&ArchiveColumns::from(&columns)));
    assert!(!read.same_layout(&ArchiveColumns::from(&every_part())));
    // A fixed-size list without the tensor marking, or with a shape that is not its size, is
    // not a column warren writes.
    let mut fields: Vec<Field> = schema.fields().iter().map(|f| f.as_ref().clone()).collect();
    let at = fields.iter().position(|f| f.name() == "grid").unwrap();
    let marked = fields[at].clone();
    fields[at] = Field::new("grid", grid_type(Some((65, 33))), false);
    assert!(ArchiveColumns::from_schema(&Schema::new(fields.clone())).is_err());
    fields[at] = marked.with_metadata(HashMap::from([
        (
            "ARROW:extension:name".to_string(),
            TENSOR_EXTENSION.to_string(),
        ),
        (
            "ARROW:extension:metadata".to_string(),
            r#"{"shape":[33,64]}"#.to_string(),
        ),
    ]));
    assert!(ArchiveColumns::from_schema(&Schema::new(fields)).is_err());
}

#[test]
fn every_part_and_its_descriptions_are_read_back() {
    let schema = level_schema(&every_part(), HashMap::new());
    let read = ArchiveColumns::from_schema(&schema).unwrap();
    assert!(read.grid && read.graph && read.tags && read.rooms && read.rule_uses);
    assert_eq!(read.metrics[1].kind, MetricKind::F32);
    assert_eq!(read.metrics[1].doc, "A ratio.");
    assert_eq!(read.extra[1].kind, ExtraKind::Utf8);
    assert_eq!(read.extra[0].doc, "A tree.");
}

/// `schema` with its fields replaced.
fn with_fields(schema: &Schema, fields: Vec<Field>) -> Schema {
    Schema::new_with_metadata(fields, schema.metadata().clone())
}

#[test]
fn foreign_missing_and_reordered_columns_are_refused_naming_the_column() {
    let schema = level_schema(&every_part(), HashMap::new());
    let fields: Vec<Field> = schema.fields().iter().map(|f| f.as_ref().clone()).collect();

    let mut foreign = fields.clone();
    foreign.push(Field::new("when", DataType::Int64, false));
    let e = ArchiveColumns::from_schema(&with_fields(&schema, foreign)).unwrap_err();
    assert!(e.to_string().contains("column `when` is Int64"), "{e}");

    let without_y: Vec<Field> = fields
        .iter()
        .filter(|f| f.name() != "vertex_y")
        .cloned()
        .collect();
    let e = ArchiveColumns::from_schema(&with_fields(&schema, without_y)).unwrap_err();
    assert!(e.to_string().contains("warren writes `vertex_y`"), "{e}");

    // A metric before an extra column: warren writes extras first.
    let mut reordered = fields.clone();
    let n = reordered.len();
    reordered.swap(n - 3, n - 2);
    let e = ArchiveColumns::from_schema(&with_fields(&schema, reordered)).unwrap_err();
    assert!(
        matches!(e, SchemaError::Misplaced { position, .. } if position == n - 3),
        "{e}"
    );

    let mut mistyped = fields;
    mistyped[0] = Field::new("index", DataType::UInt32, false);
    assert!(ArchiveColumns::from_schema(&with_fields(&schema, mistyped)).is_err());
}

#[test]
fn same_layout_looks_at_names_and_types_not_descriptions() {
    let a = ArchiveColumns::from(&every_part());
    let mut b = a.clone();
    b.metrics[0].doc = "Reworded.".into();
    assert!(a.same_layout(&b) && a != b);
    b.metrics[0].kind = MetricKind::F32;
    assert!(!a.same_layout(&b));
    let mut c = a.clone();
    c.rooms = false;
    assert!(!a.same_layout(&c));
}
