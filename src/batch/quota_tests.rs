use super::*;

const METRICS: &[MetricSpec] = &[
    MetricSpec::u32("path_length", "a"),
    MetricSpec::f32("ratio", "b"),
];

#[test]
fn quotas_compile_and_bin_values_half_open() {
    let q = Quota::compile("path_length=10..20:0.25, 20..40:0.5,40..:0.25", METRICS).unwrap();
    assert_eq!(q.bin_of(9.0), None);
    assert_eq!(q.bin_of(10.0), Some(0));
    assert_eq!(q.bin_of(20.0), Some(1));
    assert_eq!(q.bin_of(1e9), Some(2));
    assert_eq!(q.bins()[2].label(), "40..");
    assert_eq!(q.targets(1000), [250, 500, 250]);
    // Remainders go to the largest fractions, the total is always exact.
    let q = Quota::compile(
        "ratio=0..1:0.3333333,1..2:0.3333333,2..3:0.3333334",
        METRICS,
    )
    .unwrap();
    for n in [0, 1, 2, 7, 100, 1_000_001] {
        assert_eq!(q.targets(n).iter().sum::<u64>(), n);
    }
    assert_eq!(q.targets(2), [1, 0, 1]);
    // Shares that add up to a little over 1 never give more than the count.
    let q = Quota::compile("ratio=0..1:0.5000004,1..2:0.5000004", METRICS).unwrap();
    for n in [1, 999_983, 1 << 40] {
        assert_eq!(q.targets(n).iter().sum::<u64>(), n);
    }
}

#[test]
fn bad_quotas_are_refused_naming_the_fault() {
    let err = |s: &str| Quota::compile(s, METRICS).unwrap_err().to_string();
    assert!(err("nope=1..2:1").contains("no metric column `nope`"));
    assert!(err("path_length=1..2:0.5").contains("add up to 0.5"));
    assert!(err("path_length=1..5:0.5,4..8:0.5").contains("overlap"));
    assert!(err("path_length=5..5:1").contains("empty"));
    assert!(err("path_length=1..2").contains("LO..HI:SHARE"));
    assert!(err("path_length=1.2..1.8:1").contains("whole numbers"));
    assert!(err("path_length=a..2:1").contains("`a` is not a number"));
    assert!(err("path_length").contains("COLUMN="));
}

#[test]
fn the_audit_names_levels_out_of_their_bins_and_bins_left_short() {
    use std::sync::Arc;

    use arrow_array::{ArrayRef, UInt32Array};
    use arrow_schema::{DataType, Field, Schema};

    let batch = |values: &[u32]| {
        let schema = Schema::new(vec![Field::new("path_length", DataType::UInt32, false)]);
        let column: ArrayRef = Arc::new(UInt32Array::from(values.to_vec()));
        RecordBatch::try_new(Arc::new(schema), vec![column]).unwrap()
    };
    let audit = |values: &[u32], caps: &[String]| {
        let mut a = ShapeAudit::new(
            Some("path_length=0..10:0.5,10..20:0.5"),
            caps,
            (METRICS, &[]),
            values.len() as u64,
        )
        .unwrap()
        .unwrap();
        a.batch(0, &batch(values));
        a.finish();
        a
    };
    assert_eq!(audit(&[1, 2, 11, 12], &[]).count, 0);
    // 25 is in no bin, the third low value is past its bin's 2, and the high bin is short.
    let a = audit(&[1, 2, 3, 25], &[]);
    assert_eq!(a.count, 3, "{:?}", a.violations);
    assert!(a.violations[0].contains("row 2"), "{:?}", a.violations);
    assert!(a.violations.iter().any(|v| v.contains("10..20 holds 0")));
    // A cap of a quarter allows one level of each value.
    let a = audit(&[1, 1, 11, 12], &["path_length=0.25".to_string()]);
    assert_eq!(a.count, 2, "{:?}", a.violations);
}

#[test]
fn caps_and_counting_refuse_what_cannot_be_met() {
    let extra = [ExtraSpec::new("answer", ExtraKind::Utf8, "x")];
    let cap = MaxShare::compile("path_length=0.05", METRICS, &extra).unwrap();
    assert_eq!(cap.cap(1000), 50);
    assert!(
        MaxShare::compile("answer=0.1", METRICS, &extra)
            .unwrap()
            .metric
            .is_none()
    );
    let e = MaxShare::compile("x=0.1", METRICS, &extra)
        .unwrap_err()
        .to_string();
    assert!(e.contains("text columns: answer"), "{e}");
    assert!(check_shape(None, std::slice::from_ref(&cap), 10).is_err());
    // 10..12 holds two whole numbers: at most 2 x 50 of the 500 the bin asks for.
    let q = Quota::compile("path_length=10..12:0.5,12..100:0.5", METRICS).unwrap();
    let e = check_shape(Some(&q), std::slice::from_ref(&cap), 1000).unwrap_err();
    assert!(e.to_string().contains("at most 100"), "{e}");
    assert!(check_shape(Some(&q), &[], 1000).is_ok());
}
