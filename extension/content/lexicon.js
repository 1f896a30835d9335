// The words and phrases main-content-cleaning.js recognises boilerplate by, as data: per list, entries
// for one kind of page (a news site's box of more stories, a blog's closing note, a forum's
// "who is online"), each with its phrases per language. A phrase is a fragment of a regular
// expression, matched without case. A phrase belongs here only if a kind of page writes it;
// a line only one page writes is that page's business, not a rule.
//
// main-content-cleaning.js builds its patterns with anyOf(list): every phrase of every kind and
// language of the list as one alternation.
const R = String.raw;

// Class and id words (see main-content-cleaning.js for how each set is weighed).
const wordLists = {
  // Every kind of site: the parts around the text that name themselves.
  boilerplate: [
    "share", "sharing", "shares", "sharebar", "social", "socials", "newsletter", "subscribe", "subscription", "signup",
    "cookie", "cookies", "consent", "gdpr", "privacy-banner", "related", "recommended", "recommendations", "popular",
    "trending", "breadcrumb", "breadcrumbs", "sidebar", "comment", "comments", "disqus", "respond",
    "advert", "advertisement", "ads", "ad", "sponsor", "sponsored", "promo", "outbrain", "taboola", "footer", "nav",
    "navbar", "navigation", "menu", "pagination", "pager", "skip", "skiplink", "modal", "overlay", "popup", "toolbar",
    "disclaimer", "disclosure", "tags", "taglist", "meta", "postmeta", "byline", "author", "authors", "bio", "authorbox",
    "rating", "ratings", "print", "masthead", "teaser", "teasers", "links",
  ],
  // Old table layouts, blogs and profile pages name a part of the layout with these as often
  // as boilerplate (a column of posts "links", a profile's description "bio").
  layout: ["links", "bio", "author", "authors", "authorbox", "byline", "meta", "postmeta", "tags", "taglist", "teaser", "teasers", "rating", "ratings", "print", "masthead"],
  // Every kind: names of the text itself; "math" for MathJax's formulas on papers and
  // tutorials (their context-menu class reads as a menu).
  content: ["content", "article", "entry", "post", "body", "main", "story", "text", "blog", "math"],
  // News sites and blogs: boxes of other stories, even beside a content word.
  otherStories: ["related", "recommended", "recommendations", "popular", "trending"],
  // Live tickers and live blogs: their entries are named "comments".
  live: ["live", "liveticker", "liveblog", "ticker"],
  comment: ["comment", "comments"],
  // News sites: a headline and a line linking to a story elsewhere.
  teaser: ["teaser", "teasers"],
  // Photo pages and news: captions and credits.
  caption: ["caption", "credit", "credits", "copyright", "photocredit"],
  // Recipes: the ingredients' box, per language.
  ingredient: ["ingredients", "ingredient", "zutaten", "ingredientes", "ingrédients", "ingredienti"],
};

const phrases = {
  // A line pointing to more reading elsewhere on the site, heading a list of links.
  morePointer: [
    // (German writes the box's subject as a compound: "Reisetipps", "Spartipps".)
    { kind: "news site: the box of more stories under an article",
      de: [R`weitere (\p{L}+ )?(artikel|beitr[äa]ge|themen|nachrichten|news|meldungen|links|\p{L}*tipps|inhalte|videos|bilder|geschichten|stories|texte)`,
        R`weiterführende (links|artikel|beitr[äa]ge)`, R`mehr (zum thema|zu diesem thema|aus (dem|der|den)|\p{L}*tipps|artikel|news|nachrichten)`,
        R`lesen sie (auch|mehr|weiter)`, R`das könnte sie (auch )?interessieren`, R`meist ?-?(gelesen|diskutiert|kommentiert)`, "meistgelesen"],
      en: [R`more (stories|articles|news|on this|from|like this)`, R`read (also|more|next)`],
      fr: [R`(à )?lire aussi`, R`(articles? )?sur le (même )?sujet`],
      es: ["lee también", "leer más", "más noticias", "noticias relacionadas", "te puede interesar"],
      it: ["leggi anche", "potrebbe interessarti"] },
    { kind: "blog: related posts under a post",
      de: [R`(ähnliche|verwandte) (artikel|beitr[äa]ge|themen)`],
      en: [R`related( (posts|articles|stories|topics|content|reading|links))?`, R`you (may|might) also like`, R`recommended (for you|reading|articles|stories)`],
      it: ["articoli correlati"] },
  ],
  // A line that names one other story, with a colon (a news site's link between paragraphs).
  storyPointer: [
    { kind: "news site: a link to one other story between paragraphs",
      de: [R`(\.{3}\s*)?(weiter zu|hier geht('s| es) (zu|zur|zum))(?!\p{L})`, R`lesen sie auch\s*:`],
      en: [R`(also read|read more)\s*:`], fr: [R`(à )?lire aussi\s*:`], es: [R`(lea|lee) también\s*:`], it: [R`leggi anche\s*:`] },
  ],
  // ... the same at a line's end ("click here").
  storyPointerEnd: [{ kind: "any site: a link line asking for a click", en: [R`(click|tap) here`] }],
  // Spanish news sites write these in capitals ("Lee:" in lower case may be a name in an interview).
  storyPointerCapitals: [{ kind: "Spanish news site: a link to one other story", es: ["MIRA", "LEA", "LEE", "VEA", "TE PUEDE INTERESAR"] }],
  // The line that opens readers' comments.
  commentsOpen: [
    { kind: "blog and news site: the count or call heading the comments",
      de: [R`\d+ (kommentare?|antworten)( (zu|zum|zur) .+)?`, R`kommentare? \(\d+\)`, "lesermeinungen", "leserkommentare",
        R`(einen )?(kommentare?|antwort) (schreiben|hinzufügen|verfassen|abgeben|hinterlassen)`, R`schreibe(n sie)? einen kommentar`, R`#?\d* ?kommentar von .+`],
      en: [R`\d+ (comments?|responses?|replies)( (on|to) .+)?`, R`comments? \(\d+\)`, "reader comments", "readers' comments", R`(leave|post|add|write|submit) (a |your )?(comment|reply|response)`],
      fr: [R`\d+ (commentaires?|réponses?)( (sur|à) .+)?`, R`commentaires? \(\d+\)`, R`(laisser|ajouter|écrire) un commentaire`],
      es: [R`\d+ (comentarios?|respuestas?)( (en|a|para) .+)?`, R`comentarios? \(\d+\)`, R`(deja|dejar|escribe|escribir) (un|tu) comentario`],
      it: [R`\d+ (commenti|risposte)( (a) .+)?`, R`commenti \(\d+\)`, R`(lascia|scrivi) un commento`],
      nl: [R`\d+ reacties`] },
  ],
  // What the site says about the visit.
  siteNotice: [
    { kind: "any site with accounts: the log-in state",
      de: [R`sie sind (aktuell )?nicht (eingeloggt|angemeldet)`], en: [R`you are (currently )?not logged in`, R`you are (currently )?nicht (eingeloggt|angemeldet)`] },
    { kind: "any site: the browser's or JavaScript's state",
      de: [R`(bitte )?(aktivieren sie|aktiviere) javascript`, "javascript (is )?deaktiviert"],
      en: [R`you are using (an? )?(\p{L}+ )?browser`, "browser version with limited support", R`(please )?(enable|activate) javascript`, R`javascript (is )?disabled`] },
    { kind: "forum: who is online",
      de: [R`\d+ (besucher|g[äa]ste|mitglieder|benutzer)( \p{L}+)? (sind )?online`, R`(mitglieder|benutzer) in diesem forum`, "wer ist online"],
      en: [R`\d+ (guests?|users?|members?|visitors?)( \p{L}+)? (are |is )?online`, R`who'?s online`] },
  ],
  // A cookie banner no class names: "cookie" with a verb of using and the site.
  cookieUse: [{ kind: "any site: the consent banner's verb",
    de: ["verwenden", "verwendet", "nutzen", "nutzt", "einsetzen", "setzen"], en: ["uses?", "using"],
    fr: ["utilise", "utilisons", "utilisent"], es: ["usamos", "usa", "utilizamos", "utiliza"], it: ["utilizziamo"] }],
  cookieSite: [{ kind: "any site: the consent banner's subject",
    de: [R`(diese[rn]?|unsere[rn]?) (web)?seite`, R`(diese[rn]?|unsere[rn]?) website`], en: [R`(this|our) (web)?site`],
    fr: ["notre site", "ce site"], es: ["nuestro sitio", "este sitio"], it: ["questo sito"] }],
  // A widget's placeholder that no script replaced.
  loading: [{ kind: "any site with widgets (likes, more items) read without scripts",
    de: ["lade", "laden", "geladen"], en: ["loading"], es: ["cargando"], fr: ["chargement"], it: ["caricamento"], pt: ["carregando"] }],
  // Words of a value line that count the page's own parts or date it.
  pageCount: [{ kind: "blog and news site: counters and dates of the page",
    de: ["kommentare?", "aufrufe", "stimmen", "seite", "lesezeit", "gelesen", "aktualisiert", R`ver[öo]ffentlicht`, "stand", "datum"],
    en: ["comments?", "views?", "shares?", "likes?", "votes?", "page", "reading time", "read", "updated", "published", "posted", "date"],
    es: ["comentarios?", "visitas", R`p[áa]gina`, "fecha"], fr: ["commentaires?", "vues"] }],
  // Months, for lines that only date the page.
  month: [{ kind: "every kind: dates",
    en: ["jan", "feb", "mar", "apr", "ma[yi]", "jun", "jul", "aug", "sep", "o[ck]t", "nov", "de[zc]"],
    fr: [R`f[ée]v`, "avr", "juin", "juil", R`ao[uû]`, R`d[ée]c`], de: [R`m[äa]r`], it: ["giu", "lug", "set", "ott", "gen", "mag"],
    es: ["ene", "abr", "ago", "dic"] }],
  // Photo credits and image sources, with a colon, slash or ©.
  credit: [{ kind: "news site and blog: a photo's credit",
    de: [R`bild(er)?`, "titelbild", "beitragsbild", "abbildung", "quelle"], en: [R`photos?`, R`images?`, R`credits?`, "source", "getty images"],
    es: [R`fotos?`, R`créditos?`], agencies: ["dpa", "afp", "reuters"] }],
  // ... or a line opening with one and its source ("Photo by ... on ...").
  creditLine: [{ kind: "blog: a header image's credit",
    de: [R`bild(er)?`, "titelbild", "beitragsbild"], en: [R`photos?`, R`images?`, R`header ?image`, R`cover ?(image|photo)?`], es: [R`fotos?`] }],
  // The site's closing call: a channel, and an ask to follow it.
  channel: [{ kind: "news site and blog: where to follow the site",
    any: ["twitter", "instagram", "facebook", "telegram", "whatsapp", "youtube", "tiktok", "linkedin", "google news", R`\p{L}*newsletter`, R`e-?mail`, R`apps?`, R`e-?paper`],
    en: ["edition"], de: ["abo"] }],
  ask: [{ kind: "news site and blog: the ask to follow",
    en: ["follow", "subscribe", "join", "sign up", "signing up", "download"], de: ["folge", "folgen", "abonnieren"],
    es: ["seguir", R`s[íi]guenos`, R`s[íi]ganos`, R`suscr[íi]bete`, R`suscr[íi]base`, "suscribirse", R`[úu]nete`, "descarga", "mira", "recibe", R`inscr[íi]bete`],
    fr: ["suivez", "abonnez"], it: ["iscriviti"] }],
  // ... or to share, rate or support.
  engage: [
    { kind: "news site and blog: the ask to share or rate the story",
      en: [R`share (this|the) (article|post|story)`, R`(article|post) (was )?(helpful|useful)\?`, "let us know in the comments"],
      de: [R`(artikel|beitrag) teilen`, R`(artikel|beitrag) (war )?(n[üu]tzlich|hilfreich)\?`],
      es: [R`compart(e|ir) (este|el) art[íi]culo`, R`art[íi]culo (fue )?[úu]til\?`], fr: [R`partage[rz]? cet article`] },
    { kind: "independent news site and blog: the ask for support",
      en: [R`support(ing)? (our|us|independent)`, R`become a (member|supporter)`, "donate", R`help us (continue|keep|grow)`],
      de: [R`unterst[üu]tzen sie (uns|unsere)`, "spenden sie"] },
    { kind: "news site: the newsletter's pitch",
      en: ["sign up here", "never miss"], de: [R`(nichts|nie) (mehr )?(verpassen|versäumen)`, R`unsere[nm]? \p{L}*newsletter`] },
  ],
  // The page's closing notes about itself: its licence ...
  licence: [{ kind: "blog, wiki and open-access paper: the licence line",
    en: ["creative commons", "cc[- ]by", R`licen[cs]ed under`], de: ["unter der lizenz"] }],
  // ... how to cite it, and where it was filed.
  postedNote: [
    { kind: "paper and report: how to cite it", en: ["suggested citation", R`cite this (article|post)`], de: ["zitiervorschlag"] },
    { kind: "WordPress blog: the theme's closing 'posted in' note", en: ["this entry was posted"], de: [R`(beitrag|eintrag) wurde am`] },
  ],
  // A newsletter call in German sign-up words.
  newsletterSignUp: [{ kind: "German news site: the newsletter's sign-up", de: ["anmelden"] }],
  // The advertising disclosure a post opens with.
  disclosure: [{ kind: "blog and review site: the advertising disclosure",
    en: [R`advertisers?`, "affiliate", R`(receive|earn) (a )?(compensation|commission)`, R`advertisement\s*[.:|]`, "sponsored"],
    de: [R`enthält (unbezahlte )?werbung`, R`(werbung|anzeige)\s*[.:|]`, "gesponsert", R`provisionslinks?`], es: [R`publicidad\s*[.:|]`] }],
};

// Every phrase of a list, of every kind and language, as one alternation.
const anyOf = (list) => list.flatMap(({ kind, ...languages }) => Object.values(languages).flat()).join("|");
// A regular expression matching one of the list's phrases as whole words.
const wordsOf = (list, flags = "iu") => new RegExp(R`(?<!\p{L})(` + anyOf(list) + R`)(?!\p{L})`, flags);

// Each word list as a set.
const words = Object.fromEntries(Object.entries(wordLists).map(([name, list]) => [name, new Set(list)]));

export { words, phrases, anyOf, wordsOf };
