use warren::{Generator, MazeConfig, MazeGenerator};
fn main() {
    let g = MazeGenerator::new(MazeConfig::default()).unwrap();
    let mut s = g.new_scratch();
    let n = 20000u64;
    let t = std::time::Instant::now();
    let mut acc = 0u64;
    for i in 0..n {
        let l = g.generate(warren::mix(0, i), &mut s).unwrap();
        acc ^= l.layout_hash;
    }
    let dt = t.elapsed();
    println!("{:.2} us/level ({acc})", dt.as_secs_f64() * 1e6 / n as f64);
}
