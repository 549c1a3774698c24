/**
 * The iframe page's stylesheet, served as `/app.css` (the page's CSP allows
 * no inline styles).
 */
export const styles = `
:root {
  color-scheme: light;
  font-family: system-ui, -apple-system, 'Segoe UI', sans-serif;
  color: #1b1d29;
}
* { box-sizing: border-box; }
html, body { margin: 0; height: 100%; background: transparent; }
#root {
  min-height: 100%;
  display: flex;
  align-items: center;
  justify-content: center;
  padding: 16px;
}
#root:empty { display: none; }
#root:not(:empty) { background: rgba(20, 22, 35, 0.55); }
.card {
  width: 100%;
  max-width: 400px;
  background: #fff;
  border-radius: 16px;
  padding: 20px 24px 24px;
  box-shadow: 0 12px 40px rgba(0, 0, 0, 0.25);
}
.card-header {
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 8px;
}
h1 { font-size: 18px; margin: 0 0 12px; }
p { margin: 8px 0; line-height: 1.4; }
.error { color: #b3261e; }
.form { display: grid; gap: 12px; margin-top: 12px; }
label { display: grid; gap: 4px; font-size: 14px; }
input {
  font: inherit;
  padding: 10px 12px;
  border: 1px solid #c8cad6;
  border-radius: 8px;
}
.button {
  font: inherit;
  padding: 10px 14px;
  border-radius: 8px;
  border: 1px solid #c8cad6;
  background: #f4f5fa;
  cursor: pointer;
}
.button.primary { background: #6851ff; border-color: #6851ff; color: #fff; }
.card-header .button { padding: 2px 10px; font-size: 18px; }
.actions { display: flex; gap: 8px; flex-wrap: wrap; margin-top: 12px; }
.value { display: grid; gap: 2px; margin: 8px 0; }
.label { font-size: 12px; color: #60637a; }
code { font-family: ui-monospace, monospace; word-break: break-all; }
.rows { list-style: none; padding: 0; margin: 8px 0; }
.row { display: flex; gap: 12px; justify-content: space-between; padding: 6px 0; }
.codes { font-family: ui-monospace, monospace; }
.spinner {
  width: 24px;
  height: 24px;
  margin: 12px auto;
  border: 3px solid #d9dbe6;
  border-top-color: #6851ff;
  border-radius: 50%;
  animation: spin 0.8s linear infinite;
}
@keyframes spin { to { transform: rotate(360deg); } }
`
