/**
 * The browser tools: a headless Chromium (the machine's own, driven by Playwright with the
 * machine's Node.js; nothing downloaded) the agent reads pages with, as accessibility snapshots
 * whose refs it acts on. {@link ai.lango.browser.BrowserPool} keeps one browser per server and a
 * context per session, restarts a crashed or hung browser and closes idle contexts; every request a
 * context makes goes through its own {@link ai.lango.net.egress.EgressProxy}, which lets through only
 * what {@link ai.lango.net.egress.HostPolicy} allows after resolving the name; screenshots are session
 * artifacts.
 */
package ai.lango.browser;
