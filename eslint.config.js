// ESLint for TabAgent's JavaScript (`make check`): ESLint's recommended rules (what catches
// mistakes: undefined names, unused variables, unreachable code) and the layout this code
// already keeps (two-space indents, semicolons, double quotes, spacing). The layout rules are
// ESLint's own, deprecated since 8.53 in favour of @stylistic/eslint-plugin and there until
// ESLint 11: the same names under `@stylistic/` when that day comes. Prettier is not used: it
// would rewrite most files (its line breaking is not this code's).
import js from "@eslint/js";
import globals from "globals";

const extension = { ...globals.browser, ...globals.webextensions };

const layout = {
  indent: ["error", 2],
  semi: ["error", "always"],
  quotes: ["error", "double", { avoidEscape: true, allowTemplateLiterals: true }],
  "brace-style": ["error", "1tbs", { allowSingleLine: true }],
  "eol-last": "error",
  "linebreak-style": "error",
  "no-tabs": "error",
  "no-trailing-spaces": "error",
  "no-multiple-empty-lines": ["error", { max: 2 }],
  "no-multi-spaces": ["error", { ignoreEOLComments: true }],
  "padded-blocks": ["error", "never"],
  "dot-location": ["error", "property"],
  "wrap-iife": ["error", "inside"],
  "new-parens": "error",
  "no-extra-semi": "error",
  "no-floating-decimal": "error",
  "array-bracket-spacing": "error",
  "arrow-spacing": "error",
  "block-spacing": "error",
  "comma-spacing": "error",
  "computed-property-spacing": "error",
  "func-call-spacing": "error",
  "key-spacing": "error",
  "keyword-spacing": "error",
  "no-whitespace-before-property": "error",
  "rest-spread-spacing": "error",
  "semi-spacing": "error",
  "space-before-blocks": "error",
  "space-before-function-paren": ["error", { anonymous: "always", named: "never", asyncArrow: "always" }],
  "space-infix-ops": "error",
  "space-unary-ops": "error",
  "switch-colon-spacing": "error",
  "template-curly-spacing": "error",
  "yield-star-spacing": "error",
};

export default [
  // .venv, .venv-peers: a fresh clone holds the Python tools (and the JavaScript of the pages they ship) here.
  { ignores: ["extension/vendor/", "dist/", ".cache/", ".venv/", ".venv-peers/", "screenshots/"] },
  js.configs.recommended,
  {
    rules: {
      ...layout,
      // A leading underscore names what a signature or a destructuring must take and leaves unused.
      "no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true }],
    },
  },
  {
    files: ["extension/**/*.js", "bench/bare-extension/**/*.js"],
    languageOptions: { sourceType: "module", globals: extension },
  },
  {
    // Injected before the content scripts' bundle as a file of its own (extension/platform/firefox/first-in-pages.js).
    files: ["extension/platform/firefox/no-storage-in-pages.js"],
    languageOptions: { sourceType: "script" },
  },
  {
    // The MCP App frame's page script: classic, no imports (Firefox loads only web-accessible files there).
    files: ["extension/app-frame/app-frame.js"],
    languageOptions: { sourceType: "script" },
  },
  {
    files: ["extension/sandbox/worker.js", "extension/sidepanel/math-worker.js", "extension/offscreen/python/worker.js"],
    languageOptions: { globals: { ...extension, ...globals.worker } },
  },
  {
    // The MCP Apps a test server ships (tests/helpers/mcp_app_server.py): pages' modules, bundled.
    files: ["tests/helpers/mcp_apps/*.js"],
    languageOptions: { sourceType: "module", globals: globals.browser },
  },
  {
    files: ["**/*.mjs", "eslint.config.js"],
    languageOptions: { sourceType: "module", globals: globals.node },
  },
];
