/**
 * {@code exec}: a command in the workspace with a timeout and capped output, run in a bubblewrap sandbox (no
 * server process, environment, data directory or network of the server's), its process group killed when its
 * turn ends or its time is up.
 */
package ai.lango.tool.exec;
