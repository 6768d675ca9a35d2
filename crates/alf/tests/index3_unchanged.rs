//! ALF-INDEX3's trapezoidal and midpoint rules give the trajectories they gave
//! before the rules moved into `mbs-integrators`' descriptor integrator (its own
//! fixed-step loop replaced by `drive`): samples (q, q̇, q̈, λ*) and counters of the
//! cartesian pendulum, the two four-bars and Andrew's squeezer at h = 1e-3 and
//! 2e-5, recorded with the old loop in `data/index3_before.txt`
//! (`MBS_RECORD_INDEX3=1 cargo test -p mbs-alf --test index3_unchanged` rewrites it).

use std::fmt::Write as _;
use std::sync::Arc;

use mbs_alf::Index3Params;
use mbs_formulation::{Params, RunSpec, SAMPLE_LAYOUT, Sample, SampleSink};
use mbs_integrators::IntegratorChoice;
use mbs_integrators::descriptor::DescriptorRule as Rule;
use mbs_model::State;

#[derive(Default)]
struct Keep(Vec<Sample>);
impl SampleSink for Keep {
    fn sample(&mut self, s: Sample) {
        self.0.push(s);
    }
}

/// (model, rule, h, t_end)
const CASES: &[(&str, Rule, f64, f64)] = &[
    ("cartesian-pendulum", Rule::Trapezoidal, 1e-3, 0.5),
    ("cartesian-pendulum", Rule::Midpoint, 1e-3, 0.5),
    ("cartesian-pendulum", Rule::Trapezoidal, 2e-5, 0.01),
    ("cartesian-pendulum", Rule::Midpoint, 2e-5, 0.01),
    ("two-four-bars", Rule::Trapezoidal, 1e-3, 0.5),
    ("two-four-bars", Rule::Midpoint, 1e-3, 0.5),
    ("two-four-bars", Rule::Trapezoidal, 2e-5, 0.01),
    ("two-four-bars", Rule::Midpoint, 2e-5, 0.01),
    ("andrews-squeezer", Rule::Trapezoidal, 1e-3, 0.03),
    ("andrews-squeezer", Rule::Midpoint, 1e-3, 0.03),
    ("andrews-squeezer", Rule::Trapezoidal, 2e-5, 0.03),
    ("andrews-squeezer", Rule::Midpoint, 2e-5, 0.03),
];

/// One case as text lines: `key value value …` with every number in its shortest
/// round-trip form.
fn run_case(name: &str, rule: Rule, h: f64, t_end: f64) -> Vec<(String, Vec<f64>)> {
    let model = Arc::new(
        mbs_mechanisms::registry::find(name)
            .unwrap_or_else(|| panic!("no built-in {name}"))
            .mechanism
            .build()
            .unwrap(),
    );
    let s0 = State::initial(&model, SAMPLE_LAYOUT);
    let times: Vec<f64> = (0..=4).map(|k| t_end * k as f64 / 4.0 + 0.37 * h).collect();
    let mut times = times;
    times[0] = 0.0;
    *times.last_mut().unwrap() = t_end;
    let integrator = match rule {
        Rule::Midpoint => IntegratorChoice::Midpoint { h },
        _ => IntegratorChoice::Trapezoidal { h },
    };
    let spec = RunSpec {
        initial: &s0,
        integrator,
        t_end,
        output_times: &times,
        divergence_limit: 1e8,
        max_steps: 10_000_000,
        guard: true,
    };
    let mut run = Index3Params::default().build(model).unwrap();
    let mut keep = Keep::default();
    // a run that fails (the midpoint rule on the squeezer at h = 1e-3) records the
    // time of its failure and the samples before it
    let mut out = match run.run(&spec, &mut keep) {
        Ok(stats) => vec![(
            "stats".to_string(),
            vec![
                stats.accepted_steps as f64,
                stats.newton_iterations as f64,
                stats.rhs_evals as f64,
                stats.projections as f64,
            ],
        )],
        Err(e) => {
            eprintln!("{name} {rule:?} h = {h}: {e}");
            vec![("failed".to_string(), vec![e.t.unwrap()])]
        }
    };
    for (k, s) in keep.0.iter().enumerate() {
        out.push((format!("t{k}"), vec![s.state.t]));
        out.push((format!("q{k}"), s.state.q.as_slice().to_vec()));
        out.push((format!("v{k}"), s.state.v.as_slice().to_vec()));
        out.push((
            format!("a{k}"),
            s.accelerations.as_ref().unwrap().as_slice().to_vec(),
        ));
        out.push((
            format!("l{k}"),
            s.multipliers.as_ref().unwrap().as_slice().to_vec(),
        ));
    }
    out
}

fn case_key(name: &str, rule: Rule, h: f64) -> String {
    format!("{name}/{rule:?}/{h:e}")
}

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/index3_before.txt");

#[test]
fn alf_index3_rules_give_the_recorded_trajectories() {
    if std::env::var_os("MBS_RECORD_INDEX3").is_some() {
        let mut text = String::new();
        for &(name, rule, h, t_end) in CASES {
            for (k, vals) in run_case(name, rule, h, t_end) {
                write!(text, "{} {k}", case_key(name, rule, h)).unwrap();
                for v in vals {
                    write!(text, " {v:?}").unwrap();
                }
                text.push('\n');
            }
        }
        std::fs::write(DATA, text).unwrap();
        return;
    }
    let text = std::fs::read_to_string(DATA).unwrap();
    let mut worst: f64 = 0.0;
    let mut identical = true;
    for &(name, rule, h, t_end) in CASES {
        let key = case_key(name, rule, h);
        let got = run_case(name, rule, h, t_end);
        let recorded: Vec<(String, Vec<f64>)> = text
            .lines()
            .filter_map(|l| {
                let mut it = l.split(' ');
                (it.next() == Some(key.as_str())).then(|| {
                    let k = it.next().unwrap().to_string();
                    (k, it.map(|x| x.parse::<f64>().unwrap()).collect())
                })
            })
            .collect();
        assert_eq!(got.len(), recorded.len(), "{key}: number of records");
        for ((k, g), (kr, r)) in got.iter().zip(&recorded) {
            assert_eq!(k, kr, "{key}");
            assert_eq!(g.len(), r.len(), "{key} {k}");
            if k == "stats" {
                // steps, Newton iterations, evaluations, projections
                assert_eq!(g, r, "{key}: counters");
                continue;
            }
            let scale = 1.0 + r.iter().fold(0.0f64, |m, x| m.max(x.abs()));
            for (x, y) in g.iter().zip(r) {
                identical &= x.to_bits() == y.to_bits();
                let d = (x - y).abs() / scale;
                worst = worst.max(d);
                assert!(d <= 1e-12, "{key} {k}: {x:e} vs recorded {y:e}");
            }
        }
    }
    eprintln!(
        "ALF-INDEX3 against the recorded trajectories: largest relative difference {worst:e}, bit-identical: {identical}"
    );
}
