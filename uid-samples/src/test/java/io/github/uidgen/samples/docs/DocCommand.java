package io.github.uidgen.samples.docs;

import java.util.List;

/**
 * One command a reader may paste from the README or a page of {@code docs/}: a line of a {@code bash} or {@code sh}
 * block (continuation lines joined), a {@code $ } line of a transcript with the output shown under it, or a command
 * in backticks in the text.
 *
 * @param where the file and line, for messages ({@code docs/samples.md:159})
 * @param text the command, without the prompt, the trailing {@code &} and a trailing comment
 * @param comment what a trailing {@code # ...} comment says, often the output expected; empty without one
 * @param output the output a transcript shows under the command; empty elsewhere
 * @param launch the sample launch the command is run against: the launches of its block, else the last one before it
 * in its file; empty when the file starts none
 */
record DocCommand(String where, String text, String comment, List<String> output, List<DocCommand> launch) {

	/** Whether the command starts one of the sample applications. */
	boolean launchesASample() {
		return (this.text.startsWith("java ") && this.text.contains("uid-samples"))
				|| (this.text.startsWith("mvn ") && this.text.contains("spring-boot:run"));
	}

	@Override
	public String toString() {
		return this.where + "  " + this.text;
	}

}
