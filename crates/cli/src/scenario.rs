//! `hexwar scenario check FILE` and `hexwar scenario render FILE`: A Victory Lost
//! scenario files (R-20, docs/avl-scenario.md).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use avl::Scenario;
use hexmap::{Hex, Orientation};

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

/// The two corners of the hexside between the hexes centred at `c` and `n`.
fn edge(c: (f64, f64), n: (f64, f64)) -> ((f64, f64), (f64, f64)) {
    let mid = (f64::midpoint(c.0, n.0), f64::midpoint(c.1, n.1));
    let (dx, dy) = (n.0 - c.0, n.1 - c.1);
    let len = (dx * dx + dy * dy).sqrt().max(1e-9);
    let half = SIZE / 2.0;
    (
        (mid.0 - dy / len * half, mid.1 + dx / len * half),
        (mid.0 + dy / len * half, mid.1 - dx / len * half),
    )
}

/// The map as SVG, drawn from the same public facts the browser draws
/// ([`avl::display::board`]), with the setup counters' IDs.
fn svg(sc: &Scenario, compiled: &avl::scenario::Compiled) -> String {
    let rules = avl::state::Rules {
        scenario: sc.clone(),
        data: compiled.clone(),
        options: avl::Options::default(),
    };
    let board = avl::display::board(&rules);
    let map = &compiled.map;
    let orient = map.board.orientation();
    let px = |h: Hex| orient.to_pixel(h, SIZE);
    let pts: Vec<(f64, f64)> = board.hexes.iter().map(|x| px(x.hex)).collect();
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
    for (x, &pt) in board.hexes.iter().zip(&pts) {
        let color = x.color.clone().unwrap_or_else(|| {
            if x.water {
                "#8ab4e0".into()
            } else {
                "#e8e4c9".into()
            }
        });
        let poly: Vec<String> = corners(orient, pt)
            .iter()
            .map(|(x, y)| format!("{x:.1},{y:.1}"))
            .collect();
        let stroke = if x.pocket { "#b03030" } else { "#777" };
        let _ = writeln!(
            out,
            r#"<polygon points="{}" fill="{}" stroke="{stroke}" stroke-width="{}"><title>{} {}</title></polygon>"#,
            poly.join(" "),
            escape(&color),
            if x.pocket { 2.0 } else { 0.5 },
            x.label,
            escape(&x.terrain)
        );
        let _ = writeln!(
            out,
            r##"<text x="{:.1}" y="{:.1}" font-size="6" text-anchor="middle" fill="#555">{}</text>"##,
            pt.0,
            pt.1 - SIZE * 0.55,
            x.label
        );
    }
    // Hexsides: rivers and impassable sides on the side, then roads and railroads
    // centre to centre.
    for side in &board.sides {
        let style = match side.barrier {
            Some("impassable") => Some(("#222", 4.0)),
            Some("major_river") => Some(("#1f5fbf", 4.0)),
            Some(_) => Some(("#4f8fef", 2.0)),
            None => None,
        };
        if let Some((color, width)) = style {
            let (pa, pb) = edge(px(side.hexes[0]), px(side.hexes[1]));
            let _ = writeln!(
                out,
                r#"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{color}" stroke-width="{width}" stroke-linecap="round"/>"#,
                pa.0, pa.1, pb.0, pb.1
            );
        }
    }
    for side in &board.sides {
        let (pa, pb) = (px(side.hexes[0]), px(side.hexes[1]));
        if side.railroad {
            let _ = writeln!(
                out,
                r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#333" stroke-width="2.5" stroke-dasharray="5 2"/>"##,
                pa.0, pa.1, pb.0, pb.1
            );
        }
        if side.road {
            let _ = writeln!(
                out,
                r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#a0522d" stroke-width="1.8"/>"##,
                pa.0, pa.1, pb.0, pb.1
            );
        }
    }
    // Towns, cities, supply sources, Victory Cities, names.
    for (x, &pt) in board.hexes.iter().zip(&pts) {
        match x.settlement {
            Some("town") => {
                let _ = writeln!(
                    out,
                    r##"<circle cx="{:.1}" cy="{:.1}" r="3.5" fill="#444"/>"##,
                    pt.0, pt.1
                );
            }
            Some(_) => {
                let _ = writeln!(
                    out,
                    r##"<rect x="{:.1}" y="{:.1}" width="9" height="9" fill="#222"/>"##,
                    pt.0 - 4.5,
                    pt.1 - 4.5
                );
            }
            None => {}
        }
        if let Some(side) = x.source {
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
        if let Some(i) = x.victory_city {
            let (_, name, control) = &map.cities[usize::from(i)];
            let _ = writeln!(
                out,
                r#"<text x="{:.1}" y="{:.1}" font-size="7" text-anchor="middle" font-weight="bold">★ {} ({control})</text>"#,
                pt.0,
                pt.1 + SIZE * 0.6,
                escape(name)
            );
        } else if let Some(name) = &x.name {
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
