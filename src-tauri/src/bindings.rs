//! The TypeScript side of the IPC contract, generated from the commands themselves.
//!
//! Each command's `#[command]` (crate `weir-macros`) describes its signature; the list in
//! `commands/list.rs` says which commands there are. From these, [`typescript`] renders
//! `ui/src/lib/bindings/`: `Commands.ts` (every command's arguments and result, which
//! `ui/src/lib/ipc.ts` is typed by) and one file per type those signatures reach,
//! discovered through ts-rs, so no list of types is kept by hand.
//! `tests/app/bindings.rs` fails when the committed files are stale.

use std::any::TypeId;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::PathBuf;

use ts_rs::{Config, TS, TypeVisitor};

use crate::error::{AppError, IpcError};

/// The generated files' directory, relative to the repository's root.
pub const DIRECTORY: &str = "ui/src/lib/bindings";

/// The types the signatures reach, with how TypeScript spells them.
pub struct Types {
    config: Config,
    seen: HashSet<TypeId>,
    /// File name → contents, for every exportable type reached.
    files: BTreeMap<PathBuf, Result<String, String>>,
    /// The types `Commands.ts` names itself (its imports).
    named: BTreeSet<(String, PathBuf)>,
}

impl Types {
    fn new() -> Self {
        Self {
            // i64 ids and counts cross as JSON numbers; none reaches 2^53.
            config: Config::default().with_large_int("number"),
            seen: HashSet::new(),
            files: BTreeMap::new(),
            named: BTreeSet::new(),
        }
    }

    /// How TypeScript names `T` in a signature; `T` and what it reaches get their files.
    fn reference<T: TS + 'static + ?Sized>(&mut self) -> String {
        self.name_in_signature::<T>();
        self.visit::<T>();
        T::name(&self.config)
    }

    /// Records the exportable types `T::name` spells out: `T` itself, or its type
    /// arguments (`Array<X>`, `X | null`).
    fn name_in_signature<T: TS + 'static + ?Sized>(&mut self) {
        struct Named<'a>(&'a mut Types);
        impl TypeVisitor for Named<'_> {
            fn visit<U: TS + 'static + ?Sized>(&mut self) {
                self.0.name_in_signature::<U>();
            }
        }
        match T::output_path() {
            Some(path) => {
                self.named.insert((T::ident(&self.config), path));
            }
            None => T::visit_generics(&mut Named(self)),
        }
    }
}

impl TypeVisitor for Types {
    fn visit<T: TS + 'static + ?Sized>(&mut self) {
        if !self.seen.insert(TypeId::of::<T>()) {
            return;
        }
        if let Some(path) = T::output_path() {
            let text = T::export_to_string(&self.config).map_err(|error| error.to_string());
            self.files.insert(path, text);
        }
        T::visit_dependencies(self);
        T::visit_generics(self);
    }
}

/// A command as the UI calls it. Built by the code `#[command]` generates.
pub struct Signature {
    name: &'static str,
    docs: &'static str,
    /// Wire name (camelCase) and TypeScript type of each argument the web view passes.
    args: Vec<(&'static str, String)>,
    result: String,
}

impl Signature {
    pub fn new(name: &'static str, docs: &'static str) -> Self {
        Self {
            name,
            docs,
            args: Vec::new(),
            result: "null".to_owned(),
        }
    }

    pub fn arg<T: TS + 'static>(mut self, name: &'static str, types: &mut Types) -> Self {
        let ty = types.reference::<T>();
        self.args.push((name, ty));
        self
    }

    /// A `tauri::ipc::Channel<T>`: the UI passes something with an `onmessage`.
    pub fn channel<T: TS + 'static>(mut self, name: &'static str, types: &mut Types) -> Self {
        let ty = format!("Channel<{}>", types.reference::<T>());
        self.args.push((name, ty));
        self
    }

    pub fn result<T: TS + 'static>(mut self, types: &mut Types) -> Self {
        self.result = types.reference::<T>();
        self
    }

    /// An `AppResult<T>`: resolves to `T`, rejects with an [`IpcError`].
    pub fn fallible<T: Fallible>(self, types: &mut Types) -> Self {
        types.visit::<IpcError>();
        self.result::<T::Ok>(types)
    }
}

/// A command's `Result`, whose error crosses as an [`IpcError`].
pub trait Fallible {
    type Ok: TS + 'static;
}

impl<T: TS + 'static> Fallible for Result<T, AppError> {
    type Ok = T;
}

/// Every generated file as `(file name, contents)`; an `Err` names a type ts-rs could not
/// render.
pub fn typescript() -> Result<Vec<(String, String)>, String> {
    let mut types = Types::new();
    let signatures: Vec<Signature> = crate::commands::signatures()
        .into_iter()
        .map(|signature| signature(&mut types))
        .collect();
    let mut files = vec![("Commands.ts".to_owned(), commands_ts(&signatures, &types))];
    for (path, text) in types.files {
        let name = path.display().to_string();
        files.push((
            name.clone(),
            text.map_err(|error| format!("{name}: {error}"))?,
        ));
    }
    Ok(files)
}

fn commands_ts(signatures: &[Signature], types: &Types) -> String {
    let mut out = String::from(
        "// Generated from the commands in src-tauri/src/commands/list.rs by \
         src-tauri/src/bindings.rs. Do not edit this file manually.\n",
    );
    for (ident, path) in &types.named {
        let module = path.with_extension("");
        out.push_str(&format!(
            "import type {{ {ident} }} from \"./{}\";\n",
            module.display()
        ));
    }
    out.push_str(concat!(
        "\n/**\n",
        " * Where a command streams values while it runs (a Tauri `Channel` in the app).\n",
        " */\n",
        "export interface Channel<T> {\n",
        "  onmessage: (message: T) => void;\n",
        "}\n\n",
        "/**\n",
        " * Every command, in the order of `list.rs`: the arguments the web view passes\n",
        " * (`undefined`: none) and what it resolves to. A failing command rejects with an\n",
        " * `IpcError`.\n",
        " */\n",
        "export interface Commands {\n",
    ));
    for signature in signatures {
        if !signature.docs.is_empty() {
            out.push_str("  /**\n");
            for line in signature.docs.lines() {
                out.push_str(format!("   * {line}").trim_end());
                out.push('\n');
            }
            out.push_str("   */\n");
        }
        let args = if signature.args.is_empty() {
            "undefined".to_owned()
        } else {
            let fields: Vec<String> = signature
                .args
                .iter()
                .map(|(name, ty)| format!("{name}: {ty}"))
                .collect();
            format!("{{ {} }}", fields.join("; "))
        };
        out.push_str(&format!(
            "  {}: {{ args: {args}; result: {} }};\n",
            signature.name, signature.result
        ));
    }
    out.push_str("}\n\n/** Every command's name. */\nexport type CommandName = keyof Commands;\n");
    out
}
