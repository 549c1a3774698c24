/**
 * The one stylesheet of the popup overlay, scoped to its root id. Every rule
 * is `!important` so that host styles cannot hide or restyle the overlay;
 * fonts are the system's (no external assets).
 */

/** Ids of the overlay's elements (the root's id is the published one). */
export const overlayIds = {
  root: 'passport-overlay',
  contents: 'passport-overlay-contents',
  text: 'passport-overlay-text',
  tryAgain: 'passport-overlay-try-again',
  close: 'passport-overlay-close',
  style: 'passport-overlay-style',
} as const

const root = `#${overlayIds.root}`

/** The CSS injected (once) into `<head>` while an overlay is shown. */
export const overlayCss = `
${root}{all:initial!important;position:fixed!important;inset:0!important;
z-index:2147483647!important;display:flex!important;flex-direction:column!important;
justify-content:center!important;align-items:center!important;box-sizing:border-box!important;
background:rgba(13,13,13,.48)!important;backdrop-filter:blur(28px)!important;
-webkit-backdrop-filter:blur(28px)!important;color:#b6b6b6!important;
font:400 16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif!important}
${root} *{box-sizing:border-box!important;font:inherit!important}
#${overlayIds.contents}{display:flex!important;flex-direction:column!important;
align-items:center!important;max-width:400px!important;padding:0 24px!important;text-align:center!important}
#${overlayIds.text}{margin:0!important;color:#b6b6b6!important}
#${overlayIds.text} strong{display:block!important;margin-bottom:10px!important;
color:#e01a3d!important;font-weight:500!important}
#${overlayIds.tryAgain}{margin-top:27px!important;padding:12px 24px!important;
color:#f3f3f3!important;background:transparent!important;border:2px solid #f3f3f3!important;
border-radius:30px!important;font-weight:500!important;cursor:pointer!important}
#${overlayIds.close}{position:absolute!important;top:40px!important;right:40px!important;
width:48px!important;height:48px!important;display:flex!important;align-items:center!important;
justify-content:center!important;padding:0!important;border:none!important;border-radius:50%!important;
background:rgba(243,243,243,.15)!important;cursor:pointer!important}
#${overlayIds.close} svg{width:20px!important;height:20px!important}
${root} button:focus-visible{outline:2px solid #f3f3f3!important;outline-offset:2px!important}
`
