//! `hexwar scenario check FILE` and `hexwar scenario render FILE`: A Victory Lost
//! scenario files (R-20, docs/avl-scenario.md).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use avl::Scenario;
use avl::map::{Map, Settlement};
use hexmap::{Board, Direction, Hex, Orientation};

/// `hexwar scenario ...`
#[derive(clap::Subcommand)]
pub(crate) enum ScenarioCommand {
    /// Report every problem of a scenario file at once (exit 1 if there are any).
    Check {
        /// The scenario file (TOML).
        file: PathBuf,
    },
    /// Draw the scenario's map as SVG.
    Render {
        /// The scenario file (TOML).
        file: PathBuf,
        /// Where to write the SVG (default: standard output).
        #[arg(long, short)]
        output: Option<PathBuf>,
    },
}

pub(crate) fn run(command: ScenarioCommand) -> ExitCode {
    match command {
        ScenarioCommand::Check { file } => check(&file),
        ScenarioCommand::Render { file, output } => render(&file, output.as_deref()),
    }
}

fn load(file: &Path) -> Result<Scenario, ExitCode> {
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("hexwar scenario: cannot read {}: {e}", file.display());
            return Err(ExitCode::from(2));
        }
    };
    Scenario::from_toml(&text).map_err(|problems| {
        for p in problems {
            println!("{}: {p}", file.display());
        }
        ExitCode::FAILURE
    })
}

fn check(file: &Path) -> ExitCode {
    let sc = match load(file) {
        Ok(sc) => sc,
        Err(code) => return code,
    };
    match sc.compile() {
        Ok(c) => {
            println!(
                "{}: ok: {:?}, {}x{} hexes, {} units, {} HQs, {} turns",
                file.display(),
                sc.name,
                sc.map.columns,
                sc.map.rows,
                c.units.len(),
                c.hqs.len(),
                sc.turns
            );
            ExitCode::SUCCESS
        }
        Err(problems) => {
            for p in &problems {
                println!("{}: {p}", file.display());
            }
            println!("{}: {} problem(s)", file.display(), problems.len());
            ExitCode::FAILURE
        }
    }
}

fn render(file: &Path, output: Option<&Path>) -> ExitCode {
    let sc = match load(file) {
        Ok(sc) => sc,
        Err(code) => return code,
    };
    let compiled = match sc.compile() {
        Ok(c) => c,
        Err(problems) => {
            for p in &problems {
                eprintln!("{}: {p}", file.display());
            }
            eprintln!("hexwar scenario render: fix the scenario first (hexwar scenario check)");
            return ExitCode::FAILURE;
        }
    };
    let svg = svg(&sc, &compiled);
    let Some(path) = output else {
        print!("{svg}");
        return ExitCode::SUCCESS;
    };
    if let Err(e) = std::fs::write(path, svg) {
        eprintln!(
            "hexwar scenario render: cannot write {}: {e}",
            path.display()
        );
        return ExitCode::from(2);
    }
    ExitCode::SUCCESS
}

const SIZE: f64 = 24.0;

fn corners(o: Orientation, (x, y): (f64, f64)) -> [(f64, f64); 6] {
    let start = match o {
        Orientation::FlatTop => 0.0,
        Orientation::PointyTop => 30.0,
    };
    std::array::from_fn(|i| {
        let a = (start + 60.0 * i as f64).to_radians();
        (x + SIZE * a.cos(), y + SIZE * a.sin())
    })
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The two corners of the side of `hex` towards `to`.
fn edge(o: Orientation, map: &Map, hex: Hex, to: Hex) -> ((f64, f64), (f64, f64)) {
    let c = o.to_pixel(hex, SIZE);
    let n = o.to_pixel(to, SIZE);
    let mid = (f64::midpoint(c.0, n.0), f64::midpoint(c.1, n.1));
    let (dx, dy) = (n.0 - c.0, n.1 - c.1);
    let len = (dx * dx + dy * dy).sqrt().max(1e-9);
    let half = SIZE / 2.0;
    let _ = map;
    (
        (mid.0 - dy / len * half, mid.1 + dx / len * half),
        (mid.0 + dy / len * half, mid.1 - dx / len * half),
    )
}

fn svg(sc: &Scenario, compiled: &avl::scenario::Compiled) -> String {
    let map = &compiled.map;
    let orient = map.board.orientation();
    let hexes: Vec<Hex> = map.board.hexes().collect();
    let pts: Vec<(f64, f64)> = hexes.iter().map(|&h| orient.to_pixel(h, SIZE)).collect();
    let min_x = pts.iter().map(|pt| pt.0).fold(f64::INFINITY, f64::min) - SIZE * 1.5;
    let min_y = pts.iter().map(|pt| pt.1).fold(f64::INFINITY, f64::min) - SIZE * 1.5;
    let max_x = pts.iter().map(|pt| pt.0).fold(f64::NEG_INFINITY, f64::max) + SIZE * 1.5;
    let max_y = pts.iter().map(|pt| pt.1).fold(f64::NEG_INFINITY, f64::max) + SIZE * 1.5;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="{min_x:.1} {min_y:.1} {:.1} {:.1}" font-family="sans-serif">"#,
        max_x - min_x,
        max_y - min_y + 20.0
    );
    let _ = writeln!(out, "<title>{}</title>", escape(&sc.name));
    // Terrain.
    for (&h, &pt) in hexes.iter().zip(&pts) {
        let name = map.terrain_name(h);
        let color = sc
            .tec
            .terrain
            .get(name)
            .and_then(|t| t.color.clone())
            .unwrap_or_else(|| {
                if map.is_land(h) {
                    "#e8e4c9".into()
                } else {
                    "#8ab4e0".into()
                }
            });
        let poly: Vec<String> = corners(orient, pt)
            .iter()
            .map(|(x, y)| format!("{x:.1},{y:.1}"))
            .collect();
        let info = map.at(h).copied().unwrap_or_default();
        let stroke = if info.pocket { "#b03030" } else { "#777" };
        let _ = writeln!(
            out,
            r#"<polygon points="{}" fill="{}" stroke="{stroke}" stroke-width="{}"><title>{} {name}</title></polygon>"#,
            poly.join(" "),
            escape(&color),
            if info.pocket { 2.0 } else { 0.5 },
            map.label(h)
        );
        let _ = writeln!(
            out,
            r##"<text x="{:.1}" y="{:.1}" font-size="6" text-anchor="middle" fill="#555">{}</text>"##,
            pt.0,
            pt.1 - SIZE * 0.55,
            map.label(h)
        );
    }
    // Hexsides: rivers and impassable sides.
    for &h in &hexes {
        for d in [Direction::E, Direction::SE, Direction::SW] {
            let n = h.neighbor(d);
            if !map.contains(n) {
                continue;
            }
            let side_f = map.side(h, n);
            let style = if side_f.impassable {
                Some(("#222", 4.0))
            } else if side_f.major_river {
                Some(("#1f5fbf", 4.0))
            } else if side_f.minor_river {
                Some(("#4f8fef", 2.0))
            } else {
                None
            };
            if let Some((color, width)) = style {
                let (pa, pb) = edge(orient, map, h, n);
                let _ = writeln!(
                    out,
                    r#"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{color}" stroke-width="{width}" stroke-linecap="round"/>"#,
                    pa.0, pa.1, pb.0, pb.1
                );
            }
        }
    }
    // Roads and railroads, centre to centre.
    for &h in &hexes {
        for d in [Direction::E, Direction::SE, Direction::SW] {
            let n = h.neighbor(d);
            if !map.contains(n) {
                continue;
            }
            let side_f = map.side(h, n);
            let (pa, pb) = (orient.to_pixel(h, SIZE), orient.to_pixel(n, SIZE));
            if side_f.railroad {
                let _ = writeln!(
                    out,
                    r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#333" stroke-width="2.5" stroke-dasharray="5 2"/>"##,
                    pa.0, pa.1, pb.0, pb.1
                );
            }
            if side_f.road {
                let _ = writeln!(
                    out,
                    r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#a0522d" stroke-width="1.8"/>"##,
                    pa.0, pa.1, pb.0, pb.1
                );
            }
        }
    }
    // Towns, cities, supply sources, Victory Cities, names.
    for (&h, &pt) in hexes.iter().zip(&pts) {
        let info = map.at(h).copied().unwrap_or_default();
        match info.settlement {
            Settlement::Town => {
                let _ = writeln!(
                    out,
                    r##"<circle cx="{:.1}" cy="{:.1}" r="3.5" fill="#444"/>"##,
                    pt.0, pt.1
                );
            }
            Settlement::City => {
                let _ = writeln!(
                    out,
                    r##"<rect x="{:.1}" y="{:.1}" width="9" height="9" fill="#222"/>"##,
                    pt.0 - 4.5,
                    pt.1 - 4.5
                );
            }
            Settlement::None => {}
        }
        if let Some(side) = info.source {
            let color = if side == avl::Side::Axis {
                "#111"
            } else {
                "#c00"
            };
            let _ = writeln!(
                out,
                r#"<circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="none" stroke="{color}" stroke-width="2.5"><title>{side} supply source</title></circle>"#,
                pt.0,
                pt.1,
                SIZE * 0.6
            );
        }
        if let Some(i) = info.city {
            let (_, name, control) = &map.cities[usize::from(i)];
            let _ = writeln!(
                out,
                r#"<text x="{:.1}" y="{:.1}" font-size="7" text-anchor="middle" font-weight="bold">★ {} ({control})</text>"#,
                pt.0,
                pt.1 + SIZE * 0.6,
                escape(name)
            );
        } else if let Some(name) = map.names.get(&h) {
            let _ = writeln!(
                out,
                r#"<text x="{:.1}" y="{:.1}" font-size="7" text-anchor="middle">{}</text>"#,
                pt.0,
                pt.1 + SIZE * 0.6,
                escape(name)
            );
        }
    }
    // Reinforcement boxes: their name on each adjacent hex'out edge.
    for bx in &compiled.boxes {
        for &h in &bx.adjacent {
            let pt = orient.to_pixel(h, SIZE);
            let _ = writeln!(
                out,
                r##"<text x="{:.1}" y="{:.1}" font-size="6" text-anchor="middle" fill="#7a3b8f">box {}</text>"##,
                pt.0,
                pt.1 + SIZE * 0.85,
                escape(&bx.id)
            );
        }
    }
    // Setup units and HQs: a small label per hex.
    let mut at: std::collections::BTreeMap<Hex, Vec<(String, avl::Side)>> =
        std::collections::BTreeMap::new();
    for u in &compiled.units {
        if let avl::scenario::Start::Hex(h) = u.start {
            at.entry(h)
                .or_default()
                .push((u.id.clone(), u.nationality.side()));
        }
    }
    for hq in &compiled.hqs {
        if let avl::scenario::Start::Hex(h) = hq.start {
            at.entry(h)
                .or_default()
                .push((format!("[{}]", hq.id), hq.nationality.side()));
        }
    }
    for (h, list) in at {
        let pt = orient.to_pixel(h, SIZE);
        for (i, (id, side)) in list.iter().enumerate() {
            let color = if *side == avl::Side::Axis {
                "#333"
            } else {
                "#b00"
            };
            let _ = writeln!(
                out,
                r#"<text x="{:.1}" y="{:.1}" font-size="6.5" text-anchor="middle" fill="{color}">{}</text>"#,
                pt.0,
                pt.1 - 6.0 + 7.0 * i as f64,
                escape(id)
            );
        }
    }
    let _ = writeln!(
        out,
        r##"<text x="{:.1}" y="{:.1}" font-size="9" fill="#333">{}</text>"##,
        min_x + 4.0,
        max_y + 12.0,
        escape(&sc.name)
    );
    out.push_str("</svg>\n");
    out
}
