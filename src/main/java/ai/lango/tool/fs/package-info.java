/**
 * The file tools ({@code fs_read}, {@code fs_write}, {@code fs_edit}, {@code fs_list}, {@code fs_mkdir},
 * {@code fs_delete}), confined to the caller's workspace: {@code ..}, absolute paths outside it and symlinks leading
 * out are refused.
 */
package ai.lango.tool.fs;
