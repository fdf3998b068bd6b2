package io.github.uidgen.testsupport;

import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The ports a Spring Boot application started as a child process bound, read from its log. Such an application is
 * started on port 0 ({@code --server.port=0}, {@code --management.server.port=0}) so that the operating system picks
 * each port as it binds it: a port picked by the parent and passed on stays free only until some other process binds
 * it, and the application binds it seconds later.
 *
 * <p>Spring Boot logs "Tomcat started on port 41873 (http) ..." for each web server. The application's own server
 * starts first; the actuator's, on a port of its own, starts after it in the same thread, as the management context
 * is only created in a later lifecycle phase ({@code ChildManagementContextInitializer}) than the one that starts the
 * application's server.
 */
public final class BootPorts {

	private static final Pattern STARTED_ON_PORT = Pattern.compile("started on port (\\d+) \\(");

	private BootPorts() {
	}

	/**
	 * Returns the port of the application's own web server.
	 * @param log the application's log so far
	 * @return the port, or empty while the server has not started
	 */
	public static OptionalInt server(CharSequence log) {
		return started(log, 0);
	}

	/**
	 * Returns the port of the actuator's own web server.
	 * @param log the application's log so far
	 * @return the port, or empty while that server has not started
	 */
	public static OptionalInt management(CharSequence log) {
		return started(log, 1);
	}

	/** The port in the log's line of the web server that started {@code index}-th, counting from 0. */
	private static OptionalInt started(CharSequence log, int index) {
		Matcher started = STARTED_ON_PORT.matcher(log);
		for (int seen = 0; started.find(); seen++) {
			if (seen == index) {
				return OptionalInt.of(Integer.parseInt(started.group(1)));
			}
		}
		return OptionalInt.empty();
	}

}
