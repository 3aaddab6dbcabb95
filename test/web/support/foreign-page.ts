/** A page on an origin the partner did not allow, embedding the app and trying to steer it. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export async function startForeignPage(): Promise<{
  url: string;
  pageFor(appUrl: string): string;
  close(): Promise<void>;
}> {
  let target = '';
  const server: Server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html><body><h1>Not a partner</h1>
<iframe id="furrow" src="${target}" style="width:100%;height:80vh"></iframe>
<script>
  const mode = { type: 'embedded-mode', embedded: false, chrome: true, hideSideNav: false, hideOrgSelector: false, hideFieldSelector: false };
  window.sendMode = () => document.getElementById('furrow').contentWindow.postMessage(mode, '*');
  // A foreign page cannot frame the app (frame-ancestors), but it can open the partner's page
  // and post into the app frame inside it: the app must ignore that origin.
  window.openPartner = (u) => { window.partnerWindow = window.open(u, 'partner'); };
  window.sendModeToPartnerFrame = () => window.partnerWindow.frames[0].postMessage(mode, '*');
</script></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    pageFor(appUrl: string) {
      target = appUrl.replace(/"/g, '&quot;');
      return `${url}/`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
