//! Default classes (MuJoCo XML reference, "default" and "Default settings").
//!
//! The top-level `<default>` is the class `main`; a nested `<default class="c">`
//! starts from its parent class's values and overrides them. An element uses the class
//! named by its `class` attribute, else the `childclass` of the nearest enclosing body
//! or frame that has one, else `main`. Attributes written on the element win over the
//! class's.

use std::collections::{BTreeMap, HashMap};

use super::xml::Element;
use crate::ImportError;

/// Attribute values by tag (`joint`, `geom`, `site`, …) of one class.
pub(crate) type ClassDefaults = HashMap<String, BTreeMap<String, String>>;

/// All default classes of a model, inheritance already applied.
#[derive(Debug, Default)]
pub(crate) struct Defaults {
    classes: HashMap<String, ClassDefaults>,
}

/// The class of the model's top-level `<default>`.
pub(crate) const MAIN: &str = "main";

impl Defaults {
    /// Collects the `<default>` sections under `<mujoco>`.
    pub fn from_root(root: &Element) -> Result<Defaults, ImportError> {
        let mut defaults = Defaults::default();
        defaults.classes.insert(MAIN.into(), ClassDefaults::new());
        for section in root.children_named("default") {
            // the top-level default is `main` whatever it is called
            defaults.collect(section, MAIN, None)?;
        }
        Ok(defaults)
    }

    fn collect(
        &mut self,
        element: &Element,
        class: &str,
        parent: Option<&str>,
    ) -> Result<(), ImportError> {
        let mut values = match parent {
            Some(p) => self.classes.get(p).cloned().unwrap_or_default(),
            None => self.classes.remove(class).unwrap_or_default(),
        };
        if parent.is_some() && self.classes.contains_key(class) {
            return Err(ImportError::InvalidValue {
                element: element.label(),
                attribute: "class".into(),
                value: format!("\"{class}\""),
                requirement: "is defined twice (class names must be unique)".into(),
            });
        }
        for child in element.children.iter().filter(|c| c.name != "default") {
            let entry = values.entry(child.name.clone()).or_default();
            for (k, v) in &child.attrs {
                entry.insert(k.clone(), v.clone());
            }
        }
        self.classes.insert(class.to_string(), values);
        for nested in element.children_named("default") {
            let Some(name) = nested.attr("class") else {
                return Err(ImportError::InvalidValue {
                    element: nested.label(),
                    attribute: "class".into(),
                    value: "(missing)".into(),
                    requirement: "a nested <default> must name its class".into(),
                });
            };
            self.collect(nested, name, Some(class))?;
        }
        Ok(())
    }

    /// The class `name`, as referred to by `referrer`.
    pub fn class(&self, name: &str, referrer: &Element) -> Result<&ClassDefaults, ImportError> {
        self.classes.get(name).ok_or_else(|| ImportError::Missing {
            element: referrer.label(),
            target: format!("default class `{name}`"),
        })
    }

    /// The attributes of `element` with its class's defaults for its tag; `active` is
    /// the childclass in force (or `main`).
    pub fn resolve<'a>(
        &'a self,
        element: &'a Element,
        active: &str,
    ) -> Result<Attrs<'a>, ImportError> {
        let class = element.attr("class").unwrap_or(active);
        let class = self.class(class, element)?;
        Ok(Attrs {
            element,
            defaults: class.get(&element.name),
        })
    }
}

/// An element's attributes, falling back to its class defaults.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Attrs<'a> {
    /// The element.
    pub element: &'a Element,
    defaults: Option<&'a BTreeMap<String, String>>,
}

impl<'a> Attrs<'a> {
    /// Attributes of an element without defaults (`<freejoint>`, `<inertial>`, …).
    pub fn plain(element: &'a Element) -> Attrs<'a> {
        Attrs {
            element,
            defaults: None,
        }
    }

    /// The attribute `key`: as written on the element, else the class default.
    pub fn get(&self, key: &str) -> Option<&'a str> {
        self.element
            .attr(key)
            .or_else(|| self.defaults.and_then(|d| d.get(key)).map(String::as_str))
    }
}
