// A small, safe Markdown renderer for streamed answers: HTML is escaped first, then a subset is
// formatted (fenced code, inline code, headings, lists, tables, block quotes, bold, italics, links to
// http(s) only). Nothing the model writes becomes markup: every tag here is one this file writes.
(function (global) {
  "use strict";
  function escape(text) {
    return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  }
  function inline(text) {
    const codes = [];
    text = text.replace(/`([^`]+)`/g, (_, code) => { codes.push(code); return "\u0000" + (codes.length - 1) + "\u0000"; });
    text = text
      .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>")
      .replace(/(^|[^*])\*([^*\s][^*]*)\*/g, "$1<em>$2</em>")
      .replace(/\[([^\]]+)\]\((https?:\/\/[^\s)]+)\)/g, '<a href="$2" target="_blank" rel="noopener noreferrer">$1</a>');
    return text.replace(/\u0000(\d+)\u0000/g, (_, i) => "<code>" + codes[Number(i)] + "</code>");
  }
  // A table's second line: | --- | :---: | ---: | (the outer pipes optional, one pipe at least).
  const SEPARATOR = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;
  const QUOTE = /^\s*&gt;\s?/; // the text is escaped already: a quote's ">" is "&gt;"
  function cells(line) {
    return line.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map((c) => c.trim());
  }
  function startsTable(lines, i) {
    return lines[i].includes("|") && i + 1 < lines.length && lines[i + 1].includes("|") && SEPARATOR.test(lines[i + 1]);
  }
  function table(lines, i, out) {
    const align = cells(lines[i + 1]).map((c) => (/^:-+:$/.test(c) ? "center" : /-:$/.test(c) ? "right" : ""));
    const row = (line, tag) => "<tr>" + cells(line).map((c, n) => "<" + tag + (align[n] ? ' style="text-align:' + align[n] + '"' : "")
      + ">" + inline(c) + "</" + tag + ">").join("") + "</tr>";
    const body = [];
    let j = i + 2;
    while (j < lines.length && lines[j].includes("|") && lines[j].trim() !== "") { body.push(row(lines[j], "td")); j++; }
    out.push("<table><thead>" + row(lines[i], "th") + "</thead><tbody>" + body.join("") + "</tbody></table>");
    return j;
  }
  function blocks(lines) {
    const out = [];
    let i = 0;
    while (i < lines.length) {
      const line = lines[i];
      const fence = line.match(/^```\s*([\w-]*)/);
      if (fence) {
        const code = [];
        i++;
        while (i < lines.length && !/^```/.test(lines[i])) { code.push(lines[i]); i++; }
        i++; // closing fence, or the end of a block still streaming
        out.push('<pre><code class="lang-' + fence[1] + '">' + code.join("\n") + "</code></pre>");
        continue;
      }
      const heading = line.match(/^(#{1,4})\s+(.*)$/);
      if (heading) {
        const level = heading[1].length + 2;
        out.push("<h" + level + ">" + inline(heading[2]) + "</h" + level + ">");
        i++;
        continue;
      }
      if (QUOTE.test(line)) {
        const quoted = [];
        while (i < lines.length && QUOTE.test(lines[i])) { quoted.push(lines[i].replace(QUOTE, "")); i++; }
        out.push("<blockquote>" + blocks(quoted) + "</blockquote>");
        continue;
      }
      if (startsTable(lines, i)) { i = table(lines, i, out); continue; }
      if (/^\s*([-*]|\d+\.)\s+/.test(line)) {
        const ordered = /^\s*\d+\./.test(line);
        const items = [];
        while (i < lines.length && /^\s*([-*]|\d+\.)\s+/.test(lines[i])) {
          items.push("<li>" + inline(lines[i].replace(/^\s*([-*]|\d+\.)\s+/, "")) + "</li>");
          i++;
        }
        out.push((ordered ? "<ol>" : "<ul>") + items.join("") + (ordered ? "</ol>" : "</ul>"));
        continue;
      }
      if (line.trim() === "") { i++; continue; }
      const paragraph = [];
      while (i < lines.length && lines[i].trim() !== "" && !/^(```|#{1,4}\s|\s*([-*]|\d+\.)\s)/.test(lines[i])
        && !QUOTE.test(lines[i]) && !startsTable(lines, i)) {
        paragraph.push(inline(lines[i]));
        i++;
      }
      out.push("<p>" + paragraph.join("<br>") + "</p>");
    }
    return out.join("");
  }
  function render(source) {
    return blocks(escape(source || "").split("\n"));
  }
  global.LangoMarkdown = { render: render };
})(window);
