//! The allow-list KaTeX's output must pass before it is stored. KaTeX escapes the
//! formula and, without `trust`, refuses links, images and raw styles; this check is
//! the second fence should a KaTeX change or bug ever let more through: only the
//! elements and attributes KaTeX emits for math, and `style` only with the layout
//! properties KaTeX sets, on values made of digits, units, names and `#` colours.

/// The HTML, MathML and SVG elements KaTeX's HTML-and-MathML output uses.
const TAGS: &[&str] = &[
    "span",
    "math",
    "semantics",
    "annotation",
    "mrow",
    "mi",
    "mn",
    "mo",
    "ms",
    "mtext",
    "mspace",
    "msup",
    "msub",
    "msubsup",
    "mfrac",
    "msqrt",
    "mroot",
    "mover",
    "munder",
    "munderover",
    "mtable",
    "mtr",
    "mtd",
    "mstyle",
    "mpadded",
    "mphantom",
    "menclose",
    "mlabeledtr",
    "svg",
    "path",
    "line",
];

/// Attributes, on any of the elements above.
const ATTRIBUTES: &[&str] = &[
    "class",
    "style",
    "aria-hidden",
    "xmlns",
    "display",
    "encoding",
    "mathvariant",
    "mathcolor",
    "mathbackground",
    "separator",
    "stretchy",
    "fence",
    "lspace",
    "rspace",
    "minsize",
    "maxsize",
    "largeop",
    "movablelimits",
    "symmetric",
    "accent",
    "accentunder",
    "linethickness",
    "scriptlevel",
    "displaystyle",
    "columnalign",
    "columnspacing",
    "columnlines",
    "rowspacing",
    "rowlines",
    "rowalign",
    "frame",
    "framespacing",
    "equalrows",
    "equalcolumns",
    "side",
    "notation",
    "width",
    "height",
    "depth",
    "voffset",
    "viewbox",
    "preserveaspectratio",
    "d",
    "x1",
    "x2",
    "y1",
    "y2",
    "stroke-width",
];

/// CSS properties KaTeX writes in `style`.
const STYLE_PROPERTIES: &[&str] = &[
    "height",
    "min-width",
    "width",
    "vertical-align",
    "margin",
    "margin-left",
    "margin-right",
    "margin-top",
    "top",
    "bottom",
    "left",
    "right",
    "position",
    "border",
    "border-width",
    "border-bottom-width",
    "border-top-width",
    "border-right-width",
    "border-left-width",
    "border-style",
    "border-color",
    "border-right-style",
    "border-left-style",
    "padding-left",
    "padding-right",
    "color",
    "background-color",
    "font-size",
    "display",
    "text-shadow",
];

/// Whether every tag and attribute of `html` is on the lists. KaTeX's output is
/// regular (`<name attr="value">`, text escaped), so a small scanner suffices;
/// anything it cannot read is refused.
pub(super) fn is_safe_katex(html: &str) -> bool {
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        if rest[..open].contains('>') {
            return false;
        }
        let tag = &rest[open + 1..];
        let Some(close) = tag.find('>') else {
            return false;
        };
        if !is_safe_tag(&tag[..close]) {
            return false;
        }
        rest = &tag[close + 1..];
    }
    !rest.contains('>')
}

/// One tag's inside: `/name`, or `name attr="value" …`, or `name … /`.
fn is_safe_tag(inside: &str) -> bool {
    if let Some(name) = inside.strip_prefix('/') {
        return TAGS.contains(&name);
    }
    let inside = inside.strip_suffix('/').unwrap_or(inside);
    let name_end = inside.find(' ').unwrap_or(inside.len());
    if !TAGS.contains(&&inside[..name_end]) {
        return false;
    }
    let mut attrs = inside[name_end..].trim_start();
    while !attrs.is_empty() {
        let Some((name, after)) = attrs.split_once("=\"") else {
            return false;
        };
        let Some((value, after)) = after.split_once('"') else {
            return false;
        };
        let name = name.to_ascii_lowercase();
        if !ATTRIBUTES.contains(&name.as_str()) || !is_safe_value(&name, value) {
            return false;
        }
        attrs = after.trim_start();
    }
    true
}

fn is_safe_value(name: &str, value: &str) -> bool {
    if value.contains(['<', '>', '\\']) || value.to_ascii_lowercase().contains("url") {
        return false;
    }
    match name {
        "style" => value
            .split(';')
            .filter(|declaration| !declaration.trim().is_empty())
            .all(is_safe_declaration),
        "xmlns" => {
            value == "http://www.w3.org/1998/Math/MathML" || value == "http://www.w3.org/2000/svg"
        }
        "encoding" => value == "application/x-tex",
        _ => value.chars().all(|c| {
            c.is_ascii_alphanumeric()
                || c.is_ascii_whitespace()
                || " .,-+#%:".contains(c)
                || !c.is_ascii() && !c.is_control()
        }),
    }
}

/// `property:value` with a listed property and a value of numbers, units, keywords
/// and colours only (no functions, so no `url(…)` or `expression(…)`).
fn is_safe_declaration(declaration: &str) -> bool {
    let Some((property, value)) = declaration.split_once(':') else {
        return false;
    };
    STYLE_PROPERTIES.contains(&property.trim())
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || " .-+#%".contains(c))
}

#[cfg(test)]
mod tests {
    use super::is_safe_katex;

    #[test]
    fn katex_shaped_markup_passes() {
        assert!(is_safe_katex(
            "<span class=\"katex\"><span class=\"katex-mathml\"><math \
             xmlns=\"http://www.w3.org/1998/Math/MathML\"><semantics><mrow><mi>x</mi></mrow>\
             <annotation encoding=\"application/x-tex\">x &lt; 1</annotation></semantics></math>\
             </span><span class=\"katex-html\" aria-hidden=\"true\"><span class=\"strut\" \
             style=\"height:0.4306em;vertical-align:-0.05em;\"></span><svg \
             xmlns=\"http://www.w3.org/2000/svg\" width=\"400em\" height=\"1.08em\" \
             viewBox=\"0 0 400000 1080\" preserveAspectRatio=\"xMinYMin slice\"><path \
             d=\"M95,702 c-2.7,0,-7.17,-2.7\"/></svg></span></span>"
        ));
    }

    #[test]
    fn anything_else_is_refused() {
        for html in [
            "<script>alert(1)</script>",
            "<img src=x>",
            "<a href=\"javascript:alert(1)\">x</a>",
            "<span onclick=\"alert(1)\">x</span>",
            "<span style=\"background:url(javascript:alert(1))\">x</span>",
            "<span style=\"background-image:x\">x</span>",
            "<span style=\"color:expression(alert(1))\">x</span>",
            "<span class=\"a\" style=\"color:red\" href=\"x\">x</span>",
            "<math xmlns=\"https://evil.test\"></math>",
            "<span class=\"x\"",
            "<span class=x>y</span>",
            "<span>a > b</span>",
            "<foreignObject></foreignObject>",
            "<annotation encoding=\"text/html\"><b>x</b></annotation>",
        ] {
            assert!(!is_safe_katex(html), "{html}");
        }
    }
}
