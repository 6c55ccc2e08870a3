//! `warren report`: one self-contained HTML page per archive, with a chart per metric, a
//! scatter and a sample sheet; rendered by headless Chromium where it is installed (`.ci/run`
//! installs Debian's `chromium` and sets `WARREN_REQUIRE_CHROMIUM`, so there it must run).

use std::path::{Path, PathBuf};
use std::process::Command;

use warren::archive::Archive;

use crate::common::{
    TempDir, assert_one_line_error, exit_code, generate, generate_kind, stderr, stdout, warren,
};

/// Writes the report of `archive` to `out` and returns the page.
fn report(archive: &Path, out: &Path, extra: &[&str]) -> String {
    let mut args: Vec<&std::ffi::OsStr> = vec![
        "report".as_ref(),
        archive.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
    ];
    args.extend(extra.iter().map(std::ffi::OsStr::new));
    let output = warren(&args);
    assert_eq!(
        exit_code(&output),
        0,
        "{}{}",
        stdout(&output),
        stderr(&output)
    );
    std::fs::read_to_string(out).expect("the report")
}

fn metric_count(archive: &Path) -> usize {
    Archive::open(archive)
        .unwrap()
        .columns()
        .unwrap()
        .metrics
        .len()
}

#[test]
fn a_report_has_a_chart_per_metric_a_scatter_a_sheet_and_nothing_outside() {
    let dir = TempDir::new("report");
    for (kind, args) in [
        (
            "maze",
            vec!["--set", "maze.width=8", "--set", "maze.height=8"],
        ),
        ("dmg", vec![]),
        ("coloring", vec![]),
    ] {
        let archive = dir.join(&format!("{kind}.arrow"));
        let args = [&["--count", "60"][..], &args, &["--compression", "zstd"]].concat();
        generate_kind(kind, &archive, &args);
        let page = report(&archive, &dir.join(&format!("{kind}.html")), &[]);
        let charts = page.matches("<svg class=\"chart\"").count();
        assert_eq!(
            charts,
            metric_count(&archive),
            "{kind}: one chart per metric"
        );
        assert!(charts >= 5, "{kind}: {charts} charts");
        assert_eq!(page.matches("<svg class=\"scatter\"").count(), 1, "{kind}");
        assert!(page.contains("<img class=\"sheet\""), "{kind}");
        assert!(
            page.contains("src=\"data:image/png;base64,iVBORw0KGgo"),
            "{kind}: PNG data"
        );
        assert!(page.contains("compression zstd"), "{kind}");
        // Self-contained: no script, nothing fetched.
        for outside in [
            "<script",
            "src=\"http",
            "href=\"http",
            "url(http",
            "@import",
        ] {
            assert!(!page.contains(outside), "{kind}: {outside}");
        }
    }
}

#[test]
fn the_scatter_takes_named_metrics_and_a_misspelt_one_is_one_line() {
    let dir = TempDir::new("report-flags");
    let archive = dir.join("m.arrow");
    generate(
        &archive,
        &[
            "--count",
            "40",
            "--set",
            "maze.width=8",
            "--set",
            "maze.height=8",
        ],
    );
    let page = report(
        &archive,
        &dir.join("r.html"),
        &["--x", "turns", "--y", "path_length"],
    );
    assert!(
        page.contains("<b>turns</b> across, <b>path_length</b> up"),
        "the scatter's axes"
    );
    let out = dir.join("bad.html");
    let output = warren([
        "report".as_ref(),
        archive.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
        "--x".as_ref(),
        "turn".as_ref(),
    ]);
    assert_eq!(exit_code(&output), 2);
    assert_one_line_error(&output, "misspelt metric");
    assert!(
        stderr(&output).contains("no metric `turn`; this archive has: rooms"),
        "{}",
        stderr(&output)
    );
    assert!(!out.exists(), "a failed report left a file");
    let output = warren([
        "report".as_ref(),
        archive.as_os_str(),
        "--out".as_ref(),
        dir.join("r.txt").as_os_str(),
    ]);
    assert_one_line_error(&output, "not .html");
}

/// Debian's `chromium` (or `$CHROMIUM`), when installed.
fn chromium() -> Option<PathBuf> {
    let named = std::env::var_os("CHROMIUM").map(PathBuf::from);
    let found = named.into_iter().chain(
        ["chromium", "chromium-browser", "google-chrome"]
            .iter()
            .filter_map(|name| {
                let out = Command::new("sh")
                    .args(["-c", &format!("command -v {name}")])
                    .output()
                    .ok()?;
                out.status
                    .success()
                    .then(|| PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()))
            }),
    );
    let mut found = found;
    found.next()
}

fn headless(browser: &Path, args: &[&str], page: &Path) -> std::process::Output {
    Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
        ])
        .args(args)
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("run chromium")
}

#[test]
fn chromium_draws_every_chart_and_the_sheet() {
    let Some(browser) = chromium() else {
        assert!(
            std::env::var_os("WARREN_REQUIRE_CHROMIUM").is_none(),
            "WARREN_REQUIRE_CHROMIUM is set but no chromium is installed"
        );
        eprintln!("skipped: no chromium (apt-get install chromium)");
        return;
    };
    let dir = TempDir::new("report-chromium");
    let archive = dir.join("m.arrow");
    generate(&archive, &["--count", "300", "--compression", "lz4"]);
    let page = dir.join("report.html");
    report(&archive, &page, &[]);

    // The browser's own document: it parsed one chart per metric, the scatter and the sheet.
    let dom = headless(&browser, &["--dump-dom"], &page);
    let dom = String::from_utf8_lossy(&dom.stdout);
    assert_eq!(
        dom.matches("<svg class=\"chart\"").count(),
        metric_count(&archive),
        "charts in the DOM"
    );
    let bars = dom.matches("<rect x=").count();
    assert!(bars > 19 * 5, "{bars} bars in the DOM");
    assert!(dom.contains("<img class=\"sheet\""));

    // The screenshot is not blank: the sheet's dark walls and the charts' blue bars show.
    let shot = dir.join("shot.png");
    let output = headless(
        &browser,
        &[
            "--window-size=1280,2400",
            &format!("--screenshot={}", shot.display()),
        ],
        &page,
    );
    assert!(
        shot.exists(),
        "no screenshot: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let pixmap = tiny_skia::Pixmap::load_png(&shot).expect("a PNG screenshot");
    let (mut dark, mut blue) = (0usize, 0usize);
    for p in pixmap.pixels() {
        let (r, g, b) = (p.red(), p.green(), p.blue());
        if r < 60 && g < 60 && b < 60 {
            dark += 1;
        }
        if b > 140 && r < 110 && g > 90 && g < 150 {
            blue += 1;
        }
    }
    let all = pixmap.pixels().len();
    assert!(
        dark * 100 > all,
        "the sheet's walls: {dark} dark pixels of {all}"
    );
    assert!(
        blue * 200 > all,
        "the charts' bars: {blue} blue pixels of {all}"
    );
}
