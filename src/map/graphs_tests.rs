use super::*;

#[derive(Debug, Deserialize, Serialize, PartialEq)]
struct Section {
    graph: GraphList,
}

fn parse(toml_text: &str) -> Result<GraphList, String> {
    toml::from_str::<Section>(toml_text)
        .map(|s| s.graph)
        .map_err(|e| e.message().to_string())
}

#[test]
fn a_string_a_list_of_strings_and_weighted_tables_all_read() {
    assert_eq!(
        parse("graph = \"a.json\"").unwrap(),
        GraphList::from("a.json")
    );
    let list = parse("graph = [\"a.json\", { graph = \"b.json\", weight = 3 }, { graph = \"c\" }]")
        .unwrap();
    let got: Vec<(&str, u32)> = list
        .entries()
        .iter()
        .map(|g| (g.graph.as_str(), g.weight))
        .collect();
    assert_eq!(got, [("a.json", 1), ("b.json", 3), ("c", 1)]);
}

#[test]
fn bad_lists_say_what_was_expected() {
    let empty = parse("graph = []").unwrap_err();
    assert!(empty.contains("at least one level graph"), "{empty}");
    let typo = parse("graph = [{ graph = \"a\", wieght = 2 }]").unwrap_err();
    assert!(typo.contains("unknown field `wieght`"), "{typo}");
    let number = parse("graph = 3").unwrap_err();
    assert!(number.contains("a list of them"), "{number}");
    let inner = parse("graph = [3]").unwrap_err();
    assert!(inner.contains("weight = N"), "{inner}");
}

#[test]
fn one_graph_writes_a_string_and_several_write_a_list_that_reads_back() {
    let one = Section {
        graph: GraphList::from("edgar-fig1"),
    };
    assert_eq!(
        toml::to_string(&one).unwrap().trim(),
        "graph = \"edgar-fig1\""
    );
    let several = Section {
        graph: parse("graph = [\"a.json\", { graph = \"b.json\", weight = 3 }]").unwrap(),
    };
    let text = toml::to_string(&several).unwrap();
    assert_eq!(toml::from_str::<Section>(&text).unwrap(), several, "{text}");
}

#[test]
fn picks_follow_the_weights_and_one_graph_is_always_picked() {
    let one = GraphList::from("a");
    assert!((0..1000).all(|seed| one.pick(seed) == 0));
    let list =
        parse("graph = [{ graph = \"a\", weight = 1 }, { graph = \"b\", weight = 3 }]").unwrap();
    let mut counts = [0u32; 2];
    for seed in 0..40_000u64 {
        counts[list.pick(mix(7, seed))] += 1;
    }
    // 10,000 and 30,000 expected; a binomial's standard deviation here is about 87.
    assert!((9_500..=10_500).contains(&counts[0]), "{counts:?}");
    assert_eq!(counts[0] + counts[1], 40_000);
}

#[test]
fn graphs_are_named_by_their_place_in_a_list() {
    assert_eq!(GraphList::from("a").describe(0), "map.graph = \"a\"");
    let list = parse("graph = [\"a\", \"b\"]").unwrap();
    assert_eq!(list.describe(1), "map.graph[2] = \"b\"");
}
