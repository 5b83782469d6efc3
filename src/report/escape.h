// rigbench: escaping text for the markup formats the comparison and the HTML report write.
// Model names come from GGUF metadata and machine names from other machines' files: both
// are untrusted, so every piece of text goes through one of these.
#pragma once

#include <string>
#include <string_view>

namespace rigbench::report {

// Markdown table cell: '|' escaped, line breaks flattened to spaces.
std::string md_escape(std::string_view s);

// RFC 4180 CSV field: quoted (quotes doubled) when it holds a comma, quote or line break.
std::string csv_escape(std::string_view s);

// HTML text or attribute value: & < > " ' as character references.
std::string html_escape(std::string_view s);

// JSON text made safe inside an HTML <script> element: '<', '>' and '&' (which JSON can
// only hold inside strings) become \u003c, \u003e, \u0026, so no "</script>" or "<!--"
// can end the element early; the text still parses to the same value.
std::string json_for_script(std::string_view json);

}  // namespace rigbench::report
