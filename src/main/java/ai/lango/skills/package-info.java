/**
 * Skills in the open Agent Skills format: a folder per skill under lango.skills.dir with a
 * SKILL.md (YAML front matter, then Markdown instructions) and any other files. {@link
 * ai.lango.skills.SkillLibrary} reads the folder at every turn (a skill added, changed or removed is
 * seen at once) and reports a bad skill with its reason instead of hiding the others; the skill
 * tools list, load, write and import them; the Skills section puts the usable ones' names and
 * descriptions in the prompt, bodies loading only when used.
 */
package ai.lango.skills;
