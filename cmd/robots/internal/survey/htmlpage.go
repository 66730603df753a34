package survey

import "html/template"

// surveyHTMLTemplate is the page. Its markup is also well-formed XML
// (void elements closed, attributes quoted), so that each <svg> can be
// taken out of it as a file of its own; html/template escapes every
// value by its context.
//
// The tables of figures per agent are tables where their box holds them,
// and below the width each needs (reportTable.Break, a container query on
// the box, so that no script measures anything) each agent's figures are
// laid out as a grid under its name: under the headings kept at the top
// of the screen ("narrowstyle"), or each figure headed by its column's
// name, its data-label ("widestyle"). The page never scrolls sideways, and
// no table scrolls inside its box.
var surveyHTMLTemplate = template.Must(template.New("page").Funcs(template.FuncMap{
	"num":      svgNumber,
	"svgWidth": func() int { return svgWidth },
	"fontSize": func() int { return svgFontSize },
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<meta name="color-scheme" content="light" />
<title>robots.txt survey: {{.Captures}} captures</title>
<style>
body { margin: 0; color: #1a1a1a; background: #ffffff; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; }
main { max-width: 76rem; margin: 0 auto; padding: 1rem; }
main > p, section > p, section > ul, section > ol, section > dl { max-width: 48rem; }
h1 { font-size: 1.6rem; line-height: 1.2; }
h2 { font-size: 1.25rem; margin-top: 2.5rem; border-top: 1px solid #cccccc; padding-top: 1rem; }
figure { margin: 1rem 0; max-width: 32rem; }
svg { display: block; width: 100%; height: auto; }
figcaption.note { font-size: 0.875rem; color: #444444; margin-top: 0.5rem; }
@media (min-width: 64rem) { .pair { display: grid; grid-template-columns: minmax(0, 32rem) minmax(0, 1fr); gap: 0 2.5rem; align-items: start; } }
.table { margin: 1rem 0; container-type: inline-size; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; min-width: min(100%, 26rem); }
caption { text-align: left; font-weight: bold; padding: 0.25rem 0; }
th, td { padding: 0.25rem 0.6rem; border-bottom: 1px solid #dddddd; text-align: right; vertical-align: top; }
th[scope="row"], td.text, thead th.text { text-align: left; }
tbody th[scope="row"] { overflow-wrap: anywhere; }
th small.method { display: inline; margin-left: 0.4em; }
thead th { vertical-align: bottom; }
thead th.group { text-align: center; border-bottom: 1px solid #999999; }
td small, th small { display: block; color: #555555; font-weight: normal; }
code { font-size: 0.95em; overflow-wrap: anywhere; }
dt { font-weight: bold; }
@media (max-width: 40rem) { main { padding: 0.75rem; } }
{{range .Tables}}@container (max-width: {{.Break}}px) { {{if eq .Grid "narrow"}}{{template "narrowstyle" .ID}}{{else}}{{template "widestyle" .ID}}{{end}} }
{{end}}
</style>
</head>
<body>
<main>
<h1>robots.txt survey</h1>
<p>{{.Captures}} captures answered and {{.Errors}} error rows (captures that could not be read), from {{len .Inputs}} input{{if ne (len .Inputs) 1}}s{{end}}, read for {{len .Agents}} agent{{if ne (len .Agents) 1}}s{{end}}. A capture is one robots.txt response; a host captured twice counts twice. Every share is of the captures answered.</p>
{{- if .Shard}}
<p>This page counts shard {{.Shard}} of the run: {{if .ShardByInput}}the inputs whose position among them, from 0, is{{else}}the captures whose index in their input is{{end}} {{.ShardRest}} modulo {{.ShardN}}. The pages of the other shards count the rest; their counts add up, the quantiles of the sizes apart.</p>
{{- end}}

<section>
<h2>Restriction per agent</h2>
<p>Each capture is read as Google's crawler reads it, and each agent is classed over every path, exactly, from the compiled rules of the groups that apply to it: <b>all</b>, every path is disallowed; <b>some</b>, some paths are allowed and some disallowed; <b>none</b>, no path is disallowed; <b>undecided</b>, the classifier's state budget ran out before every path was read; <b>unresolved</b>, a redirect whose target the run does not hold, which no rule and no status decided.</p>
<div class="pair">
{{template "chart" .ClassChart}}
{{template "table" .ClassTable}}
</div>
</section>

<section>
<h2>Causes</h2>
<p>What decides each agent's class. A group naming the agent (<b>named</b>) and the * groups (<b>*</b>) are the site's own rules; where a CDN wrote a managed section into the file (Cloudflare's, found by its published markers), the captures it blocks beyond what the site's own rules block are set apart (<b>CDN section</b>). <b>No group</b>: the rules were read and no group applies. The status policy and unresolved redirects come last: no rule made them.</p>
{{template "chart" .CauseChart}}
{{template "table" .CauseTable}}
</section>

<section>
<h2>The sites' own rules</h2>
<p>Of the captures whose rules were read (a group naming the agent, the * groups, or no group), the class the site's own rules give: with a CDN's managed section taken out where the capture holds one (class_site), the class otherwise. Each count is followed by its share of the captures answered, then of those read.</p>
{{template "table" .OwnTable}}
</section>

<section>
<h2>Managed sections</h2>
{{- if .Managed}}
<p>Captures holding a CDN's managed section: {{range $i, $m := .Managed}}{{if $i}}, {{end}}{{$m.Label}} {{$m.Value}}{{end}}. Per agent: the captures holding one; those where the agent's groups all lie in it (its class is the CDN's); those classed all, and of them all by CDN, where the site's own rules are not all; those classed some, and of them some by CDN, where the site's own rules are none; and the site's own all and some there.</p>
{{- else}}
<p>No capture holds a managed section a CDN publishes markers for (Cloudflare's), so every class is the site's own.</p>
{{- end}}
{{template "table" .ManagedTable}}
</section>

<section>
<h2>Published methods</h2>
{{- if .Methods}}
<p>The class each published method gives the same capture and agent, against the exact reading, for the captures whose rules were read: as exact; more blocked (further along none, some, all) or less; uncounted, left out of the method's counts; undecided, where the exact reading has no class and so no direction. Then, for all, some and none, the captures the exact reading and the method give each.</p>
<dl id="methods-read">
{{- range .Methods}}
<dt>{{.Label}}</dt><dd>{{.Value}}</dd>
{{- end}}
</dl>
{{template "table" .MethodTable}}
{{- else}}
<p>No published method was compared: robots survey --compare dpi,cc,imc,root adds the classes of the Data Provenance Initiative's, Common Crawl's and the IMC 2025 study's readings, and of / alone, to the rows and this page.</p>
{{- end}}
</section>

<section>
<h2>Checking / alone</h2>
<p>A survey that checks only whether / is allowed can only say none (/ allowed) or all (/ disallowed). Every capture classed some is misread by it: as none when / is allowed, as all when / is disallowed.</p>
<div class="pair">
{{template "chart" .RootChart}}
{{template "table" .RootTable}}
</div>
</section>

<section>
<h2>Usage signals per agent</h2>
<p>The Content-Signal and Content-Usage values that apply to each agent at /: a Content-Signal line before the first group applies to every group, and where / is disallowed no preference applies. "Path lines" counts the captures where a Content-Usage line of the agent's groups has a path other than /, so that the preference at / is not the whole story.</p>
{{- if .UsageChart}}
{{template "chart" .UsageChart}}
{{- else}}
<p>No capture states a Content-Signal or Content-Usage value at / for any agent, nor a Content-Usage line with a path.</p>
{{- end}}
{{template "table" .UsageTable}}
</section>

<section>
<h2>Captures</h2>
<p>Each capture's status gives Google's policy: 2xx is parsed, and the rules decide; a 4xx but 429, or a redirect not followed, allows every path; a 429, a 5xx or a network failure disallows every path; a redirect whose target the run does not hold is unresolved.</p>
<div class="pair">
{{- with .StatusChart}}
{{template "chart" .}}
{{- end}}
<div class="table"><table id="statuses">
<caption>Captures per status class and Google's policy</caption>
<thead><tr><th scope="col" class="text">status, policy</th><th scope="col">captures</th></tr></thead>
<tbody>
{{- range .Statuses}}
<tr><th scope="row">{{.Label}}</th><td>{{.Value}}</td></tr>
{{- end}}
</tbody>
</table></div>
</div>
<div class="table"><table id="facts">
<caption>The captures</caption>
<tbody>
{{- range .Facts}}
<tr><th scope="row">{{.Label}}</th><td>{{.Value}}</td></tr>
{{- end}}
</tbody>
</table></div>
<div class="table"><table id="sizes">
<caption>Sizes of the captures answered, in bytes (quantiles by nearest rank)</caption>
<tbody>
{{- range .Sizes}}
<tr><th scope="row">{{.Label}}</th><td>{{.Value}}</td></tr>
{{- end}}
</tbody>
</table></div>
</section>

<section>
<h2>Inputs and agents</h2>
<p>Inputs, in the order read:</p>
<ul id="inputs">
{{- range .Inputs}}
<li><code>{{.}}</code></li>
{{- end}}
</ul>
<p>Agents, in the order given, with what the crawler table of package crawlers says of each; * stands for any crawler, the * groups alone:</p>
<ol id="agents">
{{- range .Agents}}
<li><code>{{.Name}}</code> ({{.Operator}}{{with .Crawler}}; {{.}}{{end}})</li>
{{- end}}
</ol>
</section>
<footer><p>Written by robots survey; docs/survey.md defines each figure.</p></footer>
</main>
</body>
</html>
{{define "chart"}}<figure>
<svg viewBox="0 0 {{svgWidth}} {{num .Height}}" width="100%" role="img" aria-labelledby="{{.ID}}-title {{.ID}}-desc" font-size="{{fontSize}}">
<title id="{{.ID}}-title">{{.Title}}</title>
<desc id="{{.ID}}-desc">{{.Desc}}</desc>
{{range .Legend}}{{template "item" .}}
{{end}}{{range .Rows}}<g>{{range .}}{{template "item" .}}{{end}}</g>
{{end}}</svg>
<figcaption class="note" id="{{.ID}}-note">{{.Note}}</figcaption>
</figure>{{end}}
{{define "narrowstyle"}}#{{.}}, #{{.}} caption, #{{.}} thead, #{{.}} tbody { display: block; } #{{.}} thead { position: sticky; top: 0; background: #ffffff; border-bottom: 1px solid #999999; } #{{.}} tr { display: grid; grid-template-columns: repeat(var(--cols), minmax(0, 1fr)); gap: 0 0.5rem; padding: 0.3rem 0; border-bottom: 1px solid #dddddd; } #{{.}} th, #{{.}} td { display: block; border: 0; padding: 0; text-align: left; font-size: 0.8rem; overflow-wrap: anywhere; } #{{.}} thead th { font-size: 0.75rem; font-weight: normal; color: #555555; } #{{.}} thead th.text { display: none; } #{{.}} th[scope="row"] { grid-column: 1 / -1; font-size: 1rem; } #{{.}} th[scope="row"] small { display: inline; margin-left: 0.5em; }{{end}}
{{define "widestyle"}}#{{.}}, #{{.}} caption, #{{.}} tbody { display: block; } #{{.}} thead { display: none; } #{{.}} tr { display: grid; grid-template-columns: repeat(var(--cols), minmax(0, 1fr)); gap: 0 0.75rem; align-items: end; padding: 0.4rem 0; border-bottom: 1px solid #dddddd; } #{{.}} th, #{{.}} td { display: block; border: 0; padding: 0.1rem 0; text-align: left; font-size: 0.875rem; overflow-wrap: anywhere; } #{{.}} th[scope="row"] { grid-column: 1 / -1; font-size: 1rem; } #{{.}} td::before { content: attr(data-label); display: block; font-size: 0.75rem; color: #555555; }{{end}}
{{define "table"}}<div class="table"><table id="{{.ID}}" style="--cols: {{.Cols}}">
<caption>{{.Caption}}</caption>
<thead>{{if .Groups}}<tr><th scope="col" class="text" rowspan="2">{{.Corner}}{{with .CornerSub}} <small>{{.}}</small>{{end}}</th>{{range .Groups}}{{template "group" .}}{{end}}</tr>
<tr>{{range .Heads}}{{if .Group}}<th scope="col">{{.Head}}</th>{{end}}{{end}}</tr>{{else}}<tr><th scope="col" class="text">{{.Corner}}{{with .CornerSub}} <small>{{.}}</small>{{end}}</th>{{range .Heads}}<th scope="col">{{.Head}}</th>{{end}}</tr>{{end}}</thead>
<tbody>
{{- range .Rows}}
<tr><th scope="row">{{.Name}}{{if .Inline}} <small class="method">{{.Sub}}</small>{{else if .Sub}}<small>{{.Sub}}</small>{{end}}</th>{{range .Cells}}<td data-label="{{.Label}}">{{.Text}}{{with .Small}} <small>{{.}}</small>{{end}}</td>{{end}}</tr>
{{- end}}
</tbody>
</table></div>{{end}}
{{define "group"}}{{if .Group}}<th scope="colgroup" class="group" colspan="{{.Span}}">{{.Group}}</th>{{else}}<th scope="col" rowspan="2">{{.Head}}</th>{{end}}{{end}}
{{define "item"}}{{if .Rect}}<rect x="{{num .X}}" y="{{num .Y}}" width="{{num .W}}" height="{{num .H}}" fill="{{.Fill}}"{{with .Stroke}} stroke="{{.}}"{{end}}{{with .Seg}} data-seg="{{.}}"{{end}}>{{with .Tip}}<title>{{.}}</title>{{end}}</rect>{{else}}<text x="{{num .X}}" y="{{num .Y}}" text-anchor="{{.Anchor}}" font-weight="{{if .Bold}}bold{{else}}normal{{end}}"{{with .Size}} font-size="{{.}}"{{end}} fill="{{.Fill}}"{{with .Seg}} data-seg="{{.}}"{{end}}>{{.Text}}{{with .Sub}}<tspan fill="` + colourMuted + `" font-weight="normal"> · {{.}}</tspan>{{end}}</text>{{end}}{{end}}
`))
