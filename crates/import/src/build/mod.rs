//! A [`LinkGraph`] as an mbs [`Model`]: links attached by fixed joints merge into one
//! body (module `groups`), each chain of moving joints becomes one mbs joint between
//! markers at the joint frame (module `connect`), loop closures become spherical or
//! rigid joints, damping and springs of revolute joints become rotational
//! spring–dampers, and every body starts at the pose and velocity of the initial joint
//! values (module `pose`). What the model cannot honour is noted by name (module
//! `notes`).

mod connect;
mod groups;
mod notes;
mod pose;
mod shapes;
mod tree;

use mbs_kinematics::euler_params;
use mbs_model::{
    Body, BodyId, BodyRef, ForceElement, JointKind, Model, ModelBuilder, TimeFunction,
};
use nalgebra::{Isometry3, Matrix3, Vector3};

use crate::{ClosureKind, ImportError, ImportNote, ImportOptions, LinkGraph, LinkRef};
use connect::{Connection, JointConnection, WorldFrame, connect};
use groups::Groups;
use pose::Placement;
use tree::Tree;

/// The model built from a link graph, with the link → body map and the notes.
#[derive(Clone, Debug)]
pub struct Imported {
    /// The validated model, bodies at the pose of the initial joint positions.
    pub model: Model,
    /// For every link of the source, the mbs body it belongs to (`None`: fixed to the
    /// world, or a massless frame folded into a joint), in the order of
    /// [`LinkGraph::links`].
    pub link_bodies: Vec<(String, Option<String>)>,
    /// The parser's notes and the builder's (what is kept only as data or ignored).
    pub notes: Vec<ImportNote>,
}

/// Builds the model of `graph` (see the module doc).
pub fn build(graph: &LinkGraph, options: &ImportOptions) -> Result<Imported, ImportError> {
    let tree = Tree::of(graph)?;
    let placement = Placement::of(graph, &tree, options)?;
    let mut notes = graph.notes.clone();
    let mut groups = Groups::of(graph, &tree, &placement);
    groups.fold_massless(graph, &mut notes);
    groups.check_masses(graph)?;

    let mut b = ModelBuilder::new(graph.name.clone());
    b.gravity(graph.gravity);
    let mut body_of_group: Vec<Option<BodyId>> = vec![None; groups.groups.len()];
    for (g, group) in groups.groups.iter().enumerate().filter(|(_, g)| !g.folded) {
        let root_pose = placement.link[group.root];
        let r = root_pose.rotation.to_rotation_matrix().into_inner();
        let name = graph.links[group.root].name.clone();
        let twist = placement.twist[group.root];
        let body_pose = Isometry3::from_parts(group.com.into(), root_pose.rotation);
        let mut shapes = Vec::new();
        for &l in &group.links {
            for v in &graph.links[l].visuals {
                let in_body = body_pose.inverse() * placement.link[l] * v.origin;
                match shapes::shape(v, &in_body, &graph.links[l].name) {
                    Ok(s) => shapes.push(s),
                    Err(note) => notes.push(note),
                }
            }
        }
        let mut body = Body::new(name, group.mass, r.transpose() * group.inertia * r);
        body.shapes = shapes;
        body.links = group
            .links
            .iter()
            .map(|&l| graph.links[l].name.clone())
            .collect();
        let id = b.add_body(body);
        b.set_initial_pose(id, group.com, euler_params::from_rotation(&r));
        b.set_initial_velocity(id, twist.velocity_at(&group.com), twist.omega);
        body_of_group[g] = Some(id);
    }
    let body_of = |link: LinkRef| -> BodyRef {
        match link {
            LinkRef::World => BodyRef::Ground,
            LinkRef::Link(l) => match groups.of[l].and_then(|g| body_of_group[g]) {
                Some(id) => BodyRef::Body(id),
                None => BodyRef::Ground,
            },
        }
    };

    for group in groups.groups.iter().filter(|g| !g.folded) {
        let child = body_of(LinkRef::Link(group.root));
        let parent = match group.parent {
            None => BodyRef::Ground,
            Some(p) => body_of(LinkRef::Link(groups.groups[p].root)),
        };
        match connect(graph, &placement, &group.joints)? {
            Connection::Free => {}
            Connection::Joint(joint) => {
                let JointConnection {
                    name,
                    kind,
                    marker_i,
                    marker_j,
                    single,
                } = *joint;
                let mi = marker(&mut b, format!("{name}.i"), parent, &marker_i);
                let mj = marker(&mut b, format!("{name}.j"), child, &marker_j);
                let joint_id = b.joint(name.clone(), kind.clone(), mi, mj);
                for &k in &group.joints {
                    notes::joint_data(&graph.joints[k], &mut notes);
                }
                let passive = group.joints.iter().map(|&k| &graph.joints[k].dynamics);
                match single.map(|k| &graph.joints[k]) {
                    Some(j) if matches!(kind, JointKind::Revolute | JointKind::Prismatic) => {
                        let d = &j.dynamics;
                        if d.damping != 0.0 || d.stiffness != 0.0 {
                            let name = format!("{name}.passive");
                            b.force(if kind == JointKind::Revolute {
                                ForceElement::RotationalSpringDamper {
                                    name,
                                    joint: joint_id,
                                    stiffness: d.stiffness,
                                    damping: d.damping,
                                    free_angle: d.spring_ref,
                                    actuator: TimeFunction::default(),
                                }
                            } else {
                                ForceElement::PrismaticSpringDamper {
                                    name,
                                    joint: joint_id,
                                    stiffness: d.stiffness,
                                    damping: d.damping,
                                    free_length: d.spring_ref,
                                    actuator: TimeFunction::default(),
                                }
                            });
                        }
                    }
                    _ => {
                        for (d, &k) in passive.zip(&group.joints) {
                            if d.damping != 0.0 || d.stiffness != 0.0 {
                                notes.push(ImportNote {
                                    element: format!("joint `{}`", graph.joints[k].name),
                                    note: format!(
                                        "damping {} and stiffness {} ignored: mbs applies them \
                                         to single revolute and prismatic joints only",
                                        d.damping, d.stiffness
                                    ),
                                });
                            }
                        }
                    }
                }
            }
        }
    }

    for closure in &graph.closures {
        let (bi, bj) = (body_of(closure.link_a), body_of(closure.link_b));
        if bi == bj {
            notes.push(ImportNote {
                element: format!("loop closure `{}`", closure.name),
                note: "ignored: both sides are in one rigid body".into(),
            });
            continue;
        }
        let fa = placement.pose(closure.link_a) * closure.frame_a;
        let fb = placement.pose(closure.link_b) * closure.frame_b;
        let kind = match closure.kind {
            ClosureKind::Point => JointKind::Spherical,
            ClosureKind::Weld => JointKind::Rigid,
        };
        let mi = marker(&mut b, format!("{}.i", closure.name), bi, &world_frame(&fa));
        let mj = marker(&mut b, format!("{}.j", closure.name), bj, &world_frame(&fb));
        b.joint(closure.name.clone(), kind, mi, mj);
    }
    if !graph.world_visuals.is_empty() {
        notes.push(ImportNote {
            element: "world".into(),
            note: format!(
                "{} geometries fixed in the world not drawn",
                graph.world_visuals.len()
            ),
        });
    }

    let model = b.build()?;
    let link_bodies = graph
        .links
        .iter()
        .enumerate()
        .map(|(l, link)| {
            let body = groups.of[l]
                .and_then(|g| body_of_group[g])
                .map(|id| model.body(id).name.clone());
            (link.name.clone(), body)
        })
        .collect();
    Ok(Imported {
        model,
        link_bodies,
        notes,
    })
}

fn world_frame(pose: &Isometry3<f64>) -> WorldFrame {
    WorldFrame {
        position: pose.translation.vector,
        axes: pose.rotation.to_rotation_matrix().into_inner(),
    }
}

/// Adds a marker at a world frame of the initial state, on `body`.
fn marker(
    b: &mut ModelBuilder,
    name: String,
    body: BodyRef,
    at: &WorldFrame,
) -> mbs_model::MarkerId {
    let (position, axes): (Vector3<f64>, Matrix3<f64>) = match body {
        BodyRef::Ground => (at.position, at.axes),
        BodyRef::Body(id) => {
            let init = b.initial(id);
            let r = euler_params::rotation(&init.orientation);
            (
                r.transpose() * (at.position - init.position),
                r.transpose() * at.axes,
            )
        }
    };
    b.marker(name, body, position, axes)
}
