"""Hostile note bodies. Each would set window.__xss if any of it ran in a browser."""

XSS_BODIES = [
    "<script>window.__xss = 1</script>",
    '<img src="x" onerror="window.__xss = 1">',
    "<img src=x onerror=window.__xss=1//",
    '<svg onload="window.__xss = 1"><circle r="1"/></svg>',
    '<div onmouseover="window.__xss = 1">hover me</div>',
    '<details open ontoggle="window.__xss = 1"><summary>x</summary></details>',
    '<a href="javascript:window.__xss = 1">raw html link</a>',
    '<iframe src="javascript:window.__xss = 1"></iframe>',
    '<object data="javascript:window.__xss = 1"></object>',
    "<<script>script>window.__xss = 1<</script>/script>",
    "<scr<script>ipt>window.__xss = 1</scr</script>ipt>",
    "<math><mtext><table><mglyph><style><img src=x onerror=window.__xss=1>",
    "<style>body { display: none }</style>",
    "[lowercase](javascript:window.__xss=1)",
    "[upper](JAVASCRIPT:window.__xss=1)",
    "[mixed](  jAvAsCrIpT:window.__xss=1)",
    "[tab](java\tscript:window.__xss=1)",
    "[entity](&#106;avascript:window.__xss=1)",
    "[hex entity](&#x6A;avascript&#x3A;window.__xss=1)",
    "[vb](vbscript:msgbox(1))",
    "[data](data:text/html;base64,PHNjcmlwdD53aW5kb3cuX194c3M9MTwvc2NyaXB0Pg==)",
    "![image](javascript:window.__xss=1)",
    "![tracker](https://tracker.example/pixel.png)",
    "<javascript:window.__xss=1>",
    "<data:text/html,<script>window.__xss=1</script>>",
    "[ref][evil]\n\n[evil]: javascript:window.__xss=1",
    '[title](https://example.org "onmouseover=window.__xss=1")',
    "&lt;script&gt;window.__xss = 1&lt;/script&gt;",
    "`<script>window.__xss = 1</script>`",
    "```html\n<script>window.__xss = 1</script>\n```",
    "<!-- <script>window.__xss = 1</script> -->",
    '<p style="background:url(javascript:window.__xss=1)">styled</p>',
    '<form action="javascript:window.__xss=1"><button>go</button></form>',
    '<a href="https://example.org" onclick="window.__xss = 1">looks fine</a>',
]

# Quotes and locators are plain text (escaped by the template), but they get hostile input too.
XSS_QUOTE = '"><script>window.__xss = 1</script><img src=x onerror="window.__xss=1">'
XSS_LOCATOR = "p. 1 <svg onload=window.__xss=1>"
