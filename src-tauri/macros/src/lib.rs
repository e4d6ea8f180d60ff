//! `#[command]`, the attribute on every IPC command of the app (`src-tauri/src/commands/`).
//!
//! It adds `#[tauri::command]` and, beside the function, a hidden module of the same name
//! whose `signature` describes the command as the UI sees it: the wire name, the arguments
//! the web view passes (camelCase, as Tauri expects them) and what the command resolves to.
//! `src-tauri/src/bindings.rs` turns these into `ui/src/lib/bindings/Commands.ts`, so a
//! changed Rust signature changes the TypeScript one and the UI stops type-checking until
//! it follows. Fallible commands also log their failure once, with the command's name
//! (`weir_app::error::logged`).
//!
//! Arguments Tauri injects (state, the app handle, windows) are not part of the signature;
//! a `Channel<T>` is, as a channel of `T`. A return type whose name ends in `Result` is the
//! app's `Result<T, AppError>`: the command resolves to `T` or rejects with an `IpcError`.

use proc_macro::TokenStream;
use proc_macro2::{Span, TokenStream as TokenStream2};
use quote::{format_ident, quote};
use syn::{FnArg, ItemFn, LitStr, Pat, ReturnType, Type, parse_macro_input};

/// Types Tauri fills in itself: never sent by the web view.
const INJECTED: &[&str] = &[
    "State",
    "AppHandle",
    "Window",
    "Webview",
    "WebviewWindow",
    "Request",
];

#[proc_macro_attribute]
pub fn command(attr: TokenStream, item: TokenStream) -> TokenStream {
    if !attr.is_empty() {
        return syn::Error::new(Span::call_site(), "#[command] takes no arguments")
            .to_compile_error()
            .into();
    }
    let function = parse_macro_input!(item as ItemFn);
    expand(function)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

fn expand(function: ItemFn) -> syn::Result<TokenStream2> {
    let name = function.sig.ident.clone();
    let wire_name = LitStr::new(&name.to_string(), name.span());
    let docs = docs(&function);
    let mut args = Vec::new();
    let mut call_args = Vec::new();
    for input in &function.sig.inputs {
        let FnArg::Typed(arg) = input else {
            return Err(syn::Error::new_spanned(
                input,
                "a command is a free function",
            ));
        };
        let Pat::Ident(ident) = &*arg.pat else {
            return Err(syn::Error::new_spanned(&arg.pat, "name each argument"));
        };
        call_args.push(ident.ident.clone());
        let ty = &*arg.ty;
        let wire = LitStr::new(&camel_case(&ident.ident.to_string()), ident.ident.span());
        match last_segment(ty) {
            Some((segment, _)) if INJECTED.contains(&segment.as_str()) => {}
            Some((segment, Some(inner))) if segment == "Channel" => {
                args.push(quote! { .channel::<#inner>(#wire, types) });
            }
            _ => args.push(quote! { .arg::<#ty>(#wire, types) }),
        }
    }
    let fallible = match &function.sig.output {
        ReturnType::Type(_, ty) => {
            last_segment(ty).is_some_and(|(name, _)| name.ends_with("Result"))
        }
        ReturnType::Default => false,
    };
    let result = match &function.sig.output {
        ReturnType::Default => quote! { .result::<()>(types) },
        ReturnType::Type(_, ty) if fallible => quote! { .fallible::<#ty>(types) },
        ReturnType::Type(_, ty) => quote! { .result::<#ty>(types) },
    };
    let vis = function.vis.clone();
    let function = if fallible {
        logged(function, &wire_name, &call_args)
    } else {
        quote! { #function }
    };
    Ok(quote! {
        #[::tauri::command]
        #function

        #[doc(hidden)]
        #vis mod #name {
            #[allow(unused_imports)]
            use super::*;

            /// This command as the UI sees it.
            pub fn signature(types: &mut crate::bindings::Types) -> crate::bindings::Signature {
                crate::bindings::Signature::new(#wire_name, #docs)
                    #(#args)*
                    #result
            }
        }
    })
}

/// The function with its body moved into an inner function of the same signature, whose
/// answer passes through `crate::error::logged` on its way out.
fn logged(function: ItemFn, wire_name: &LitStr, call_args: &[syn::Ident]) -> TokenStream2 {
    let ItemFn {
        attrs,
        vis,
        sig,
        block,
    } = function;
    let mut inner = sig.clone();
    inner.ident = format_ident!("__{}_body", sig.ident);
    let inner_name = &inner.ident;
    let (_, type_generics, _) = sig.generics.split_for_impl();
    let turbofish = type_generics.as_turbofish();
    let call = if sig.asyncness.is_some() {
        quote! { #inner_name #turbofish(#(#call_args),*).await }
    } else {
        quote! { #inner_name #turbofish(#(#call_args),*) }
    };
    quote! {
        #(#attrs)*
        #vis #sig {
            #inner #block
            crate::error::logged(#wire_name, #call)
        }
    }
}

/// The doc comment, as one string.
fn docs(function: &ItemFn) -> LitStr {
    let lines: Vec<String> = function
        .attrs
        .iter()
        .filter(|attr| attr.path().is_ident("doc"))
        .filter_map(|attr| match &attr.meta {
            syn::Meta::NameValue(syn::MetaNameValue {
                value:
                    syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(text),
                        ..
                    }),
                ..
            }) => Some(text.value().trim().to_owned()),
            _ => None,
        })
        .collect();
    LitStr::new(&lines.join("\n"), Span::call_site())
}

/// The last path segment's name and, if it has one, its first type argument.
fn last_segment(ty: &Type) -> Option<(String, Option<&Type>)> {
    let Type::Path(path) = ty else {
        return None;
    };
    let segment = path.path.segments.last()?;
    let first = match &segment.arguments {
        syn::PathArguments::AngleBracketed(args) => args.args.iter().find_map(|arg| match arg {
            syn::GenericArgument::Type(ty) => Some(ty),
            _ => None,
        }),
        _ => None,
    };
    Some((segment.ident.to_string(), first))
}

/// `on_progress` → `onProgress`: how Tauri names arguments on the wire by default.
fn camel_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper = false;
    for c in name.trim_start_matches('_').chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn argument_names_cross_in_camel_case_as_tauri_names_them() {
        assert_eq!(camel_case("request"), "request");
        assert_eq!(camel_case("on_progress"), "onProgress");
        assert_eq!(camel_case("since_id_of_log"), "sinceIdOfLog");
    }

    #[test]
    fn the_last_segment_names_injected_and_channel_arguments() {
        let ty: Type = syn::parse_quote!(tauri::State<'_, Accounts>);
        assert_eq!(
            last_segment(&ty).map(|(name, _)| name).as_deref(),
            Some("State")
        );
        let ty: Type = syn::parse_quote!(Channel<ApplyProgress>);
        let (name, inner) = last_segment(&ty).unwrap();
        assert_eq!(name, "Channel");
        assert!(inner.is_some_and(|inner| quote!(#inner).to_string() == "ApplyProgress"));
    }

    #[test]
    fn a_fallible_command_keeps_its_signature_and_gains_a_describer() {
        let function: ItemFn = syn::parse_quote! {
            /// Removes an account.
            pub async fn remove_account(
                accounts: State<'_, Accounts>,
                request: AccountIdRequest,
            ) -> AppResult<()> {
                Ok(())
            }
        };
        let out = expand(function).unwrap().to_string();
        assert!(out.contains("# [:: tauri :: command]"), "{out}");
        assert!(out.contains("pub mod remove_account"), "{out}");
        assert!(
            out.contains(". arg :: < AccountIdRequest > (\"request\" , types)"),
            "{out}"
        );
        assert!(!out.contains(". arg :: < State"), "{out}");
        assert!(
            out.contains("crate :: error :: logged (\"remove_account\""),
            "{out}"
        );
        assert!(
            out.contains(". fallible :: < AppResult < () > > (types)"),
            "{out}"
        );
    }
}
