// node-fetch 2 (grammY's HTTP client on Node) requires whatwg-url only as a fallback for runtimes
// without a URL class (`Url.URL || whatwgUrl.URL`); Node has one. The real package pulls in tr46's
// 260 KB Unicode table, which a start would compile for nothing.
module.exports = { URL: globalThis.URL };
