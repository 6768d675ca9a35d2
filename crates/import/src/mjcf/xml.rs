//! The MJCF text as an owned element tree, `<include>` expanded.
//!
//! MuJoCo XML reference, "include": the included file must be well-formed XML with
//! one top-level element; that element is dropped and its children are inserted in
//! place of the `<include>`; includes may nest (a cycle is an error). The file name is
//! resolved relative to the including file's directory (then the main file's, as
//! MuJoCo does).

use std::path::{Path, PathBuf};

use crate::ImportError;

/// One XML element, with where it was written.
#[derive(Clone, Debug)]
pub(crate) struct Element {
    /// Tag name.
    pub name: String,
    /// Attributes in the order written.
    pub attrs: Vec<(String, String)>,
    /// Child elements (comments and text dropped), includes expanded.
    pub children: Vec<Element>,
    /// File name (no directory) and 1-based line where the element starts.
    pub at: Location,
}

/// Where an element was written.
#[derive(Clone, Debug)]
pub(crate) struct Location {
    /// The file's name (last path component).
    pub file: String,
    /// 1-based line.
    pub line: u32,
}

impl Element {
    /// The attribute `key`, if written.
    pub fn attr(&self, key: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The element's `name` attribute.
    pub fn name_attr(&self) -> Option<&str> {
        self.attr("name")
    }

    /// "geom `foot`", or "geom at hopper.xml:12" for an unnamed element: how error
    /// messages and notes name it.
    pub fn label(&self) -> String {
        match self.name_attr() {
            Some(n) => format!("{} `{}`", self.name, n),
            None => format!("{} at {}:{}", self.name, self.at.file, self.at.line),
        }
    }

    /// Children with tag `name`.
    pub fn children_named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Element> {
        self.children.iter().filter(move |c| c.name == name)
    }
}

/// Reads `path` and expands its includes; the root must be `<mujoco>`.
pub(crate) fn read_model(path: &Path) -> Result<Element, ImportError> {
    let main_dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut stack = Vec::new();
    let root = read_file(path, &main_dir, &mut stack)?;
    if root.name != "mujoco" {
        return Err(ImportError::Syntax {
            path: path.to_path_buf(),
            message: format!(
                "the root element is <{}>, an MJCF file has <mujoco> (MuJoCo XML reference)",
                root.name
            ),
        });
    }
    Ok(root)
}

/// Parses one file; `stack` holds the files being read (include cycle detection).
fn read_file(
    path: &Path,
    main_dir: &Path,
    stack: &mut Vec<PathBuf>,
) -> Result<Element, ImportError> {
    let canonical = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    if stack.contains(&canonical) {
        return Err(ImportError::Syntax {
            path: path.to_path_buf(),
            message: "is included by itself (include cycle)".into(),
        });
    }
    let text = std::fs::read_to_string(path).map_err(|e| ImportError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    })?;
    check_depth(&text).map_err(|message| ImportError::Syntax {
        path: path.to_path_buf(),
        message,
    })?;
    let doc = roxmltree::Document::parse(&text).map_err(|e| ImportError::Syntax {
        path: path.to_path_buf(),
        // roxmltree's message carries "at line:column"
        message: format!("malformed XML: {e}"),
    })?;
    stack.push(canonical);
    let file = path
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let ctx = Ctx {
        doc: &doc,
        file: &file,
        path,
        dir: &dir,
        main_dir,
    };
    let root = convert(&ctx, doc.root_element(), stack);
    stack.pop();
    root
}

/// Elements may nest this deep (a chain of ~1000 bodies; the readers recurse per level).
pub(crate) const MAX_DEPTH: usize = 1024;

/// Refuses a text nested deeper than [`MAX_DEPTH`], with quick-xml's streaming reader
/// (roxmltree and the body-tree reader recurse per level and would overflow the stack
/// first). XML that quick-xml cannot read is left to roxmltree's message.
fn check_depth(text: &str) -> Result<(), String> {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(text);
    let mut depth = 0usize;
    loop {
        match reader.read_event() {
            Ok(Event::Start(_)) => {
                depth += 1;
                if depth > MAX_DEPTH {
                    let at = (reader.buffer_position() as usize).min(text.len());
                    let line = 1 + text.as_bytes()[..at]
                        .iter()
                        .filter(|&&b| b == b'\n')
                        .count();
                    return Err(format!(
                        "elements nested deeper than {MAX_DEPTH} levels at line {line}"
                    ));
                }
            }
            Ok(Event::End(_)) => depth = depth.saturating_sub(1),
            Ok(Event::Eof) | Err(_) => return Ok(()),
            Ok(_) => {}
        }
    }
}

struct Ctx<'a, 'input> {
    doc: &'a roxmltree::Document<'input>,
    file: &'a str,
    path: &'a Path,
    dir: &'a Path,
    main_dir: &'a Path,
}

fn convert(
    ctx: &Ctx<'_, '_>,
    node: roxmltree::Node<'_, '_>,
    stack: &mut Vec<PathBuf>,
) -> Result<Element, ImportError> {
    let line = ctx.doc.text_pos_at(node.range().start).row;
    let mut element = Element {
        name: node.tag_name().name().to_string(),
        attrs: node
            .attributes()
            .map(|a| (a.name().to_string(), a.value().to_string()))
            .collect(),
        children: Vec::new(),
        at: Location {
            file: ctx.file.to_string(),
            line,
        },
    };
    for child in node.children().filter(|c| c.is_element()) {
        if child.tag_name().name() == "include" {
            let Some(file) = child.attribute("file") else {
                return Err(ImportError::Syntax {
                    path: ctx.path.to_path_buf(),
                    message: format!(
                        "<include> at line {} has no `file` attribute",
                        ctx.doc.text_pos_at(child.range().start).row
                    ),
                });
            };
            let mut target = ctx.dir.join(file);
            if !target.exists() && ctx.main_dir.join(file).exists() {
                target = ctx.main_dir.join(file);
            }
            if !target.exists() {
                return Err(ImportError::Io {
                    path: target,
                    message: format!(
                        "not found (<include file=\"{file}\"> in {} at line {})",
                        ctx.file,
                        ctx.doc.text_pos_at(child.range().start).row
                    ),
                });
            }
            let included = read_file(&target, ctx.main_dir, stack)?;
            element.children.extend(included.children);
        } else {
            element.children.push(convert(ctx, child, stack)?);
        }
    }
    Ok(element)
}
