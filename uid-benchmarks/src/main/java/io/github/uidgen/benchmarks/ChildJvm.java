package io.github.uidgen.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A JVM of its own for one measurement, started from this jar, so that no earlier part's threads, garbage, JIT
 * profile or connections can change what it measures. Its {@code RESULT} lines are what it reports; everything else
 * it prints goes to this JVM's standard error as progress.
 */
final class ChildJvm {

	static final String RESULT = "RESULT\t";

	private final Process process;

	private final String what;

	private ChildJvm(Process process, String what) {
		this.process = process;
		this.what = what;
	}

	/**
	 * Starts a child JVM running a main class of this jar.
	 * @param what what it measures, for messages
	 * @param jvmOptions options such as the heap size
	 * @param mainClass the class to run
	 * @param args its arguments
	 * @return the running child
	 */
	static ChildJvm start(String what, List<String> jvmOptions, Class<?> mainClass, String... args) throws IOException {
		String java = ProcessHandle.current().info().command().orElse("java");
		List<String> command = new ArrayList<>();
		command.add(java);
		command.addAll(jvmOptions);
		command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass.getName()));
		command.addAll(List.of(args));
		Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
		return new ChildJvm(process, what);
	}

	/**
	 * Reads the child's output until it ends and waits for it to exit.
	 * @return its result lines, each split at tabs, without the {@code RESULT} marker
	 * @throws IllegalStateException when it exits with an error
	 */
	List<String[]> results() throws IOException, InterruptedException {
		List<String[]> results = new ArrayList<>();
		try (BufferedReader reader = new BufferedReader(
				new InputStreamReader(this.process.getInputStream(), StandardCharsets.UTF_8))) {
			String line;
			while ((line = reader.readLine()) != null) {
				if (line.startsWith(RESULT)) {
					results.add(line.substring(RESULT.length()).split("\t", -1));
				}
				else {
					System.err.println(line);
				}
			}
		}
		int exit = this.process.waitFor();
		if (exit != 0) {
			throw new IllegalStateException("The measurement of " + this.what + " failed (exit " + exit + ")");
		}
		return results;
	}

	/**
	 * Prints one result line for the parent to read.
	 * @param fields the values, none containing a tab
	 */
	static void report(Object... fields) {
		StringBuilder line = new StringBuilder("RESULT");
		for (Object field : fields) {
			line.append('\t').append(field);
		}
		System.out.println(line);
		System.out.flush();
	}

}
