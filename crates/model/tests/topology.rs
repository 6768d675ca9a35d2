//! Topology: spanning tree, cut joints, loops, Grübler count and the binary assembly
//! tree on chains, a five-bar, a tree, a double loop and random graphs.

use mbs_model::{
    AssemblyTree, BodyId, BodyRef, DriverKind, JointId, JointKind, Model, ModelBuilder,
    TimeFunction,
};
use nalgebra::{Matrix3, Vector3};
use proptest::prelude::*;

/// Ground is node 0 in the edge lists below; body i is node i + 1.
fn node(i: usize) -> BodyRef {
    if i == 0 {
        BodyRef::Ground
    } else {
        BodyRef::Body(BodyId(i - 1))
    }
}

/// `n` unit bodies and a revolute joint per edge (nodes: 0 = ground, i = body i − 1).
fn graph_model(n: usize, edges: &[(usize, usize)]) -> Model {
    let mut b = ModelBuilder::new("graph");
    for i in 0..n {
        b.body(format!("b{i}"), 1.0, Matrix3::identity());
    }
    for (k, &(u, v)) in edges.iter().enumerate() {
        b.joint_at(
            format!("j{k}"),
            JointKind::Revolute,
            node(u),
            node(v),
            Vector3::new(k as f64, 0.0, 0.0),
            Vector3::z(),
        );
    }
    b.build().unwrap()
}

fn chain(n: usize) -> Model {
    let edges: Vec<_> = (0..n).map(|i| (i, i + 1)).collect();
    graph_model(n, &edges)
}

fn ids(v: &[usize]) -> Vec<JointId> {
    v.iter().copied().map(JointId).collect()
}

fn ceil_log2(n: usize) -> usize {
    if n <= 1 {
        0
    } else {
        (usize::BITS - (n - 1).leading_zeros()) as usize
    }
}

/// Whether `bodies` induce a connected subgraph (ground removed).
fn connected(model: &Model, bodies: &[BodyId]) -> bool {
    let t = model.topology();
    let inside = |b: BodyId| bodies.contains(&b);
    let mut seen = vec![bodies[0]];
    let mut k = 0;
    while k < seen.len() {
        let u = seen[k];
        k += 1;
        for &(_, v) in t.neighbors(BodyRef::Body(u)) {
            if let BodyRef::Body(v) = v
                && inside(v)
                && !seen.contains(&v)
            {
                seen.push(v);
            }
        }
    }
    seen.len() == bodies.len()
}

/// Every structural property of the assembly tree (module docs of `topology`).
fn check_assembly_tree(model: &Model) {
    let t = model.topology();
    let tree: &AssemblyTree = t.assembly_tree();
    let n = model.n_bodies();
    assert_eq!(tree.order.len(), n);
    if n == 0 {
        assert!(tree.nodes.is_empty());
        return;
    }
    assert_eq!(tree.nodes.len(), 2 * n - 1);
    let root = tree.root().unwrap();
    assert_eq!(root, tree.nodes.len() - 1);
    assert_eq!(tree.nodes[root].range, 0..n);
    assert_eq!(tree.nodes[root].parent, None);
    assert!(
        tree.height() <= ceil_log2(n),
        "height {} for {n} bodies",
        tree.height()
    );

    // every body is exactly one leaf
    let mut leaf_count = vec![0; n];
    for (i, node) in tree.nodes.iter().enumerate() {
        if let Some(b) = tree.leaf_body(i) {
            leaf_count[b.0] += 1;
            assert_eq!(tree.leaf_of[b.0], i);
            assert!(node.joints.is_empty());
            assert_eq!(node.height, 0);
        }
    }
    assert!(leaf_count.iter().all(|&c| c == 1), "{leaf_count:?}");

    // every joint exactly once
    let mut joint_count = vec![0; model.joints().len()];
    for j in tree
        .nodes
        .iter()
        .flat_map(|n| &n.joints)
        .chain(&tree.ground_joints)
    {
        joint_count[j.0] += 1;
    }
    assert!(joint_count.iter().all(|&c| c == 1), "{joint_count:?}");
    assert_eq!(tree.nodes[root].boundary, tree.ground_joints);

    let in_node = |i: usize, b: BodyRef| match b {
        BodyRef::Ground => false,
        BodyRef::Body(b) => tree.bodies(i).contains(&b),
    };
    for (i, node) in tree.nodes.iter().enumerate() {
        // children before parents, ranges split, heights and depths consistent
        if let Some([l, r]) = node.children {
            assert!(l < i && r < i);
            assert_eq!(tree.nodes[l].parent, Some(i));
            assert_eq!(tree.nodes[r].parent, Some(i));
            assert_eq!(tree.nodes[l].range.start, node.range.start);
            assert_eq!(tree.nodes[l].range.end, tree.nodes[r].range.start);
            assert_eq!(tree.nodes[r].range.end, node.range.end);
            let (nl, nr) = (tree.nodes[l].n_bodies(), tree.nodes[r].n_bodies());
            assert!(nl == nr || nl == nr + 1, "balanced split {nl} + {nr}");
            assert_eq!(
                node.height,
                1 + tree.nodes[l].height.max(tree.nodes[r].height)
            );
            assert_eq!(tree.nodes[l].depth, node.depth + 1);
            // handled joints connect the two children
            for &j in &node.joints {
                let (a, b) = t.joint_bodies(j);
                assert!(
                    (in_node(l, a) && in_node(r, b)) || (in_node(r, a) && in_node(l, b)),
                    "joint {j:?} at node {i}"
                );
            }
        }
        // boundary = joints with exactly one end inside
        let expected: Vec<JointId> = (0..model.joints().len())
            .map(JointId)
            .filter(|&j| {
                let (a, b) = t.joint_bodies(j);
                in_node(i, a) != in_node(i, b)
            })
            .collect();
        assert_eq!(node.boundary, expected, "boundary of node {i}");
    }
    // levels group by height; nodes of a level have disjoint bodies
    for (h, level) in tree.levels().iter().enumerate() {
        let mut seen = vec![false; n];
        for &i in level {
            assert_eq!(tree.nodes[i].height, h);
            for b in tree.bodies(i) {
                assert!(!seen[b.0]);
                seen[b.0] = true;
            }
        }
    }
    assert_eq!(
        tree.levels().iter().map(Vec::len).sum::<usize>(),
        tree.nodes.len()
    );
}

/// Spanning-forest invariants.
fn check_spanning_tree(model: &Model) {
    let t = model.topology();
    let n = model.n_bodies();
    let c = t.components().len();
    assert!(t.components()[0].grounded);
    assert_eq!(t.tree_joints().len(), n + 1 - c);
    assert_eq!(t.n_loops(), model.joints().len() + c - (n + 1));
    assert_eq!(
        t.cut_joints().len() + t.tree_joints().len(),
        model.joints().len()
    );
    let mut position = vec![usize::MAX; n];
    for (k, b) in t.tree_order().iter().enumerate() {
        position[b.0] = k;
    }
    for b in (0..n).map(BodyId) {
        match t.parent(b) {
            Some((p, j)) => {
                assert!(!t.is_cut_joint(j));
                let (x, y) = t.joint_bodies(j);
                assert!((x, y) == (p, BodyRef::Body(b)) || (y, x) == (p, BodyRef::Body(b)));
                assert!(t.children(p).contains(&b));
                if let BodyRef::Body(p) = p {
                    assert!(position[p.0] < position[b.0], "parents first");
                    assert_eq!(t.depth(b), t.depth(p) + 1);
                } else {
                    assert_eq!(t.depth(b), 1);
                }
            }
            None => {
                assert_eq!(t.depth(b), 0);
                assert!(!t.components()[t.component_of(b)].grounded);
            }
        }
    }
    // every fundamental loop is a closed walk: cut joint + tree path
    for &cut in t.cut_joints() {
        let lp = t.fundamental_loop(cut).unwrap();
        assert_eq!(lp[0], cut);
        assert!(lp[1..].iter().all(|&j| !t.is_cut_joint(j)));
        let mut degree = std::collections::HashMap::new();
        for &j in &lp {
            let (a, b) = t.joint_bodies(j);
            *degree.entry(a).or_insert(0) += 1;
            *degree.entry(b).or_insert(0) += 1;
        }
        assert!(degree.values().all(|&d| d == 2), "{lp:?} is not a cycle");
    }
    for &j in t.tree_joints() {
        assert_eq!(t.fundamental_loop(j), None);
    }
}

#[test]
fn chain_has_no_loop_and_full_mobility() {
    for n in [1, 2, 3, 5, 8] {
        let m = chain(n);
        let t = m.topology();
        assert_eq!(t.n_loops(), 0);
        assert!(t.cut_joints().is_empty());
        assert_eq!(t.tree_joints(), ids(&(0..n).collect::<Vec<_>>()).as_slice());
        // a spatial chain of revolutes: mobility n, and Grübler agrees
        assert_eq!(t.grubler_mobility(), n as i64);
        assert!(t.is_grounded());
        assert_eq!(
            t.tree_order(),
            (0..n).map(BodyId).collect::<Vec<_>>().as_slice()
        );
        assert_eq!(t.parent(BodyId(0)), Some((BodyRef::Ground, JointId(0))));
        for i in 1..n {
            assert_eq!(
                t.parent(BodyId(i)),
                Some((BodyRef::Body(BodyId(i - 1)), JointId(i)))
            );
            assert_eq!(t.depth(BodyId(i)), i + 1);
        }
        check_spanning_tree(&m);
        check_assembly_tree(&m);
    }
}

#[test]
fn chain_assembly_tree_depth_is_ceil_log2_and_subtrees_are_segments() {
    for n in 1..=70 {
        let m = chain(n);
        let tree = m.topology().assembly_tree();
        assert_eq!(tree.height(), ceil_log2(n), "n = {n}");
        assert_eq!(
            tree.order,
            (0..n).map(BodyId).collect::<Vec<_>>(),
            "chain order"
        );
        for i in 0..tree.nodes.len() {
            assert!(connected(&m, tree.bodies(i)), "n = {n}, node {i}");
            // a chain segment is joined to its sibling by exactly one joint
            if !tree.nodes[i].is_leaf() {
                assert_eq!(tree.nodes[i].joints.len(), 1);
            }
        }
        assert_eq!(tree.ground_joints, vec![JointId(0)]);
        check_assembly_tree(&m);
    }
}

/// Five-bar of the ALF-DCA paper (sec 4.2): bodies 1–4, joints 1–5 with joints 1 and
/// 5 to ground.
fn five_bar() -> Model {
    graph_model(4, &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)])
}

#[test]
fn five_bar_has_one_loop_and_grubler_minus_one() {
    let m = five_bar();
    let t = m.topology();
    assert_eq!(t.grubler_mobility(), 6 * 4 - 5 * 5);
    assert_eq!(t.grubler_mobility(), -1);
    assert_eq!(t.n_loops(), 1);
    // breadth first from ground: bodies 1 and 4 hang from ground, 2 from 1, 3 from 4;
    // the joint 2–3 closes the loop
    assert_eq!(t.cut_joints(), &[JointId(2)]);
    assert_eq!(t.children(BodyRef::Ground), &[BodyId(0), BodyId(3)]);
    assert_eq!(
        t.parent(BodyId(2)),
        Some((BodyRef::Body(BodyId(3)), JointId(3)))
    );
    assert_eq!(
        t.fundamental_loop(JointId(2)).unwrap(),
        ids(&[2, 1, 0, 4, 3])
    );
    // the paper's binary tree (Fig. 4): (1 2)(3 4), joint 3 at the root, joints 1 and
    // 5 as the root's boundary conditions (eqs 73–77)
    let tree = t.assembly_tree();
    assert_eq!(tree.order, (0..4).map(BodyId).collect::<Vec<_>>());
    let root = &tree.nodes[tree.root().unwrap()];
    assert_eq!(root.joints, ids(&[2]));
    assert_eq!(tree.ground_joints, ids(&[0, 4]));
    let [l, r] = root.children.unwrap();
    assert_eq!(tree.nodes[l].joints, ids(&[1]));
    assert_eq!(tree.nodes[r].joints, ids(&[3]));
    assert_eq!(tree.nodes[l].boundary, ids(&[0, 2]));
    assert_eq!(tree.height(), 2);
    check_spanning_tree(&m);
    check_assembly_tree(&m);
}

#[test]
fn a_tree_has_no_loops() {
    // ground – b0; b0 – b1, b0 – b2; b1 – b3; b2 – b4; b2 – b5
    let m = graph_model(6, &[(0, 1), (1, 2), (1, 3), (2, 4), (3, 5), (3, 6)]);
    let t = m.topology();
    assert_eq!(t.n_loops(), 0);
    assert_eq!(t.grubler_mobility(), 6);
    assert_eq!(
        t.children(BodyRef::Body(BodyId(0))),
        &[BodyId(1), BodyId(2)]
    );
    assert_eq!(
        t.children(BodyRef::Body(BodyId(2))),
        &[BodyId(4), BodyId(5)]
    );
    check_spanning_tree(&m);
    check_assembly_tree(&m);
    let tree = t.assembly_tree();
    // the first half of every split is connected
    for node in &tree.nodes {
        if let Some([l, _]) = node.children {
            assert!(connected(&m, tree.bodies(l)));
        }
    }
}

/// Double loop of the ALF-DCA paper (sec 4.3): upper pentagon ground–1–2–3–4–ground,
/// lower pentagon 3–5–6–7–8–3 sharing body 3.
fn double_loop() -> Model {
    graph_model(
        8,
        &[
            (0, 1),
            (1, 2),
            (2, 3),
            (3, 4),
            (4, 0),
            (3, 5),
            (5, 6),
            (6, 7),
            (7, 8),
            (8, 3),
        ],
    )
}

#[test]
fn double_loop_has_two_loops() {
    let m = double_loop();
    let t = m.topology();
    assert_eq!(t.grubler_mobility(), 6 * 8 - 5 * 10);
    assert_eq!(t.n_loops(), 2);
    assert_eq!(t.cut_joints().len(), 2);
    check_spanning_tree(&m);
    check_assembly_tree(&m);
    let tree = t.assembly_tree();
    assert_eq!(tree.height(), 3);
    assert_eq!(tree.ground_joints, ids(&[0, 4]));
    // the two halves are connected: the sub-assemblies are mechanisms, not scatter
    let root = &tree.nodes[tree.root().unwrap()];
    let [l, r] = root.children.unwrap();
    assert!(connected(&m, tree.bodies(l)) && connected(&m, tree.bodies(r)));
}

#[test]
fn drivers_are_not_edges_and_count_one_row() {
    let mut b = ModelBuilder::new("driven");
    let l = b.body("crank", 1.0, Matrix3::identity());
    let j = b.joint_at(
        "pin",
        JointKind::Revolute,
        BodyRef::Ground,
        BodyRef::Body(l),
        Vector3::zeros(),
        Vector3::z(),
    );
    b.driver(
        "motor",
        DriverKind::JointAngle { joint: j },
        TimeFunction::Polynomial {
            coefficients: vec![0.0, 1.0],
        },
    );
    let m = b.build().unwrap();
    let t = m.topology();
    assert_eq!(t.n_joints(), 1);
    assert_eq!(t.holonomic_rows(), 6);
    assert_eq!(t.grubler_mobility(), 0);
    assert_eq!(t.n_loops(), 0);
}

#[test]
fn nonholonomic_rows_only_reduce_velocity_freedom() {
    // bowling ball: rolling sphere on the ground plane (thesis sec 7.4)
    let mut b = ModelBuilder::new("ball");
    let ball = b.body(
        "ball",
        71.32,
        Matrix3::from_diagonal_element(0.4 * 71.32 * 0.109 * 0.109),
    );
    b.joint_at(
        "contact",
        JointKind::RollingSphere { radius: 0.109 },
        BodyRef::Body(ball),
        BodyRef::Ground,
        Vector3::zeros(),
        Vector3::z(),
    );
    let m = b.build().unwrap();
    let t = m.topology();
    assert_eq!((t.holonomic_rows(), t.nonholonomic_rows()), (1, 2));
    assert_eq!(t.grubler_mobility(), 5);
    assert_eq!(t.grubler_velocity_mobility(), 3);
}

#[test]
fn free_floating_components_and_parallel_joints() {
    // b0 – b1 free floating; b2 on ground with two joints (a 2-cycle)
    let m = graph_model(3, &[(1, 2), (0, 3), (3, 0)]);
    let t = m.topology();
    assert_eq!(t.components().len(), 2);
    assert_eq!(t.components()[0].bodies, vec![BodyId(2)]);
    assert!(!t.components()[1].grounded);
    assert_eq!(t.components()[1].bodies, vec![BodyId(0), BodyId(1)]);
    assert!(!t.is_grounded());
    assert_eq!(t.parent(BodyId(0)), None);
    assert_eq!(
        t.parent(BodyId(1)),
        Some((BodyRef::Body(BodyId(0)), JointId(0)))
    );
    assert_eq!(t.cut_joints(), &[JointId(2)]);
    assert_eq!(t.fundamental_loop(JointId(2)).unwrap(), ids(&[2, 1]));
    check_spanning_tree(&m);
    check_assembly_tree(&m);
}

#[test]
fn empty_model_is_refused_naming_bodies() {
    // a model without bodies has no topology to speak of: the builder refuses it and
    // names the missing `bodies` (a file may name a generator instead)
    let err = ModelBuilder::new("empty").build().unwrap_err();
    let msg = err.to_string();
    assert!(msg.contains("`bodies`"), "{msg}");
    assert!(msg.contains("at least one body"), "{msg}");
}

#[test]
fn single_free_body_is_its_own_component() {
    // ground's component and the free body's: not grounded, six degrees of freedom
    let m = graph_model(1, &[]);
    let t = m.topology();
    assert_eq!(t.components().len(), 2);
    assert!(!t.is_grounded());
    assert_eq!(t.grubler_mobility(), 6);
    assert!(t.cut_joints().is_empty());
    check_spanning_tree(&m);
    check_assembly_tree(&m);
}

#[test]
fn ladder_of_loops_scales() {
    // a ladder of 2000 bodies: two rails joined by rungs, hanging from ground
    let n = 2000;
    let mut edges = vec![(0, 1), (0, 2)];
    for k in 0..n / 2 - 1 {
        let (a, b) = (2 * k + 1, 2 * k + 2);
        edges.push((a, a + 2));
        edges.push((b, b + 2));
        edges.push((a + 2, b + 2));
    }
    let m = graph_model(n, &edges);
    let t = m.topology();
    assert_eq!(t.n_loops(), edges.len() - n);
    assert!(t.assembly_tree().height() <= ceil_log2(n));
    check_spanning_tree(&m);
}

fn random_graph() -> impl Strategy<Value = (usize, Vec<(usize, usize)>)> {
    (1usize..24).prop_flat_map(|n| {
        let edge = (0..=n, 0..=n).prop_filter("no self joints", |(u, v)| u != v);
        (Just(n), prop::collection::vec(edge, 0..3 * n))
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn random_graphs_satisfy_every_invariant((n, edges) in random_graph()) {
        let m = graph_model(n, &edges);
        check_spanning_tree(&m);
        check_assembly_tree(&m);
        // deterministic: the same parts give the same topology
        let again = Model::from_parts(m.to_parts()).unwrap();
        prop_assert_eq!(again.topology(), m.topology());
    }
}
