package io.github.uidgen.samples.docs;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import io.github.uidgen.samples.UidSamplesApplication;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.config.YamlProcessor.MatchStatus;
import org.springframework.beans.factory.config.YamlPropertiesFactoryBean;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Every command a reader may paste from {@code README.md} and {@code docs/*.md} works as the page says
 * ({@link DocCommands} finds them):
 * <ul>
 * <li>a {@code curl} to the sample is sent to a running sample (the default profile, or the segment generator on the
 * mysql profile where the page started that), on the port the page's launch gives the service or the actuator, and
 * answers the status and the fields of the output the page shows (a transcript's lines, or a {@code # ...} comment),
 * through the {@code jq} filter the page applies;</li>
 * <li>a launch of the sample names the jar the build makes, profiles the sample has, properties something binds, and
 * a service port apart from the actuator's and from the other launches of its block;</li>
 * <li>a Maven command names modules the build has; a benchmark command a part and options the benchmarks read;
 * {@code .ci/repeat} a module and a test class that exist; the Node.js decoder prints what its comment says;</li>
 * <li>a backticked {@code --name=value} in the text names a property something binds.</li>
 * </ul>
 * A command of any other kind fails until it is checked here or listed in {@link #NOT_RUN} with the reason.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DocCommandsTests {

	/** Commands no test can run here, by their start, with why; a command of a new kind fails until it is listed. */
	private static final Map<String, String> NOT_RUN = Map.of(
			"git clone ", "needs the public repository on GitHub",
			"mvn install ", "writes into the reader's ~/.m2, which a test must not",
			"mvn -B -T 3 verify", "the test command itself: .ci/run runs it",
			"openssl rand ", "prints a random key: OpaqueUidFormatTests checks what a 32-byte key does",
			"sudo apt-get install ", "installs a system package",
			"java -Djarmode=tools ", "the AOT cache recipe: uid-benchmarks' startup --variants runs it (StartupTime)",
			"java -Dspring.aot.enabled=true ", "the AOT cache recipe: uid-benchmarks' startup --variants runs it");

	/** The sample applications a curl may be sent to. */
	private enum Sample {

		/** The default profile: a static worker ID, the cached generator. */
		DEFAULT,

		/** The segment generator on the mysql profile. */
		SEGMENT

	}

	/** A backticked {@code --name=value} whose name has a dot: an application's property, not a server's flag. */
	private static final Pattern INLINE_PROPERTY = Pattern.compile("`--([a-z][a-z0-9-]*\\.[a-z0-9.\\[\\]-]*)=[^`]*`");

	private static final Pattern PROFILE = Pattern.compile("^\\s+on-profile:\\s*(\\w+)\\s*$", Pattern.MULTILINE);

	private final Path root = DocCommands.root();

	private final List<DocCommand> commands = DocCommands.read(this.root);

	private final JsonMapper json = JsonMapper.builder().build();

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final Map<Sample, ConfigurableApplicationContext> running = new EnumMap<>(Sample.class);

	/** The benchmarks' sources, once a benchmark command needed them. */
	private Map<String, String> benchmarkSources;

	private final Properties sampleDefaults = sampleDefaults();

	private final Set<String> knownProperties = knownProperties();

	@AfterAll
	void stopTheSamples() {
		this.running.values().forEach(ConfigurableApplicationContext::close);
	}

	@TestFactory
	Stream<DynamicTest> everyCommandWorksAsThePageSays() {
		assertThat(this.commands).as("commands found in README.md and docs/*.md").hasSizeGreaterThan(50);
		return this.commands.stream().map((command) -> DynamicTest.dynamicTest(command.toString(), () -> check(command)));
	}

	@TestFactory
	Stream<DynamicTest> everyPropertyInTheTextIsOneSomethingBinds() throws IOException {
		List<DynamicTest> tests = new ArrayList<>();
		for (Path file : DocCommands.files(this.root)) {
			List<String> lines = Files.readAllLines(file);
			for (int i = 0; i < lines.size(); i++) {
				Matcher matcher = INLINE_PROPERTY.matcher(lines.get(i));
				while (matcher.find()) {
					String name = matcher.group(1);
					String where = this.root.relativize(file) + ":" + (i + 1);
					tests.add(DynamicTest.dynamicTest(where + "  --" + name, () -> assertBound(name, where)));
				}
			}
		}
		assertThat(tests).as("backticked --name=value in README.md and docs/*.md").isNotEmpty();
		return tests.stream();
	}

	private void check(DocCommand command) throws Exception {
		String text = command.text().replaceFirst("^BUSY=1 ", "");
		if (notRun(command)) {
			return;
		}
		if (text.startsWith("curl ")) {
			checkCurl(command);
		}
		else if (command.launchesASample()) {
			checkLaunch(command);
		}
		else if (text.startsWith("mvn ")) {
			checkModules(command, tokens(text));
		}
		else if (text.matches("(\\S*/bin/)?java -(jar|cp) uid-benchmarks/.*")) {
			checkBenchmark(command);
		}
		else if (text.startsWith(".ci/repeat")) {
			checkRepeat(command);
		}
		else if (text.startsWith("node docs/opaque/decode.mjs")) {
			checkDecoder(command);
		}
		else {
			fail("%s: a command of a kind DocCommandsTests does not know; check it there, or list it in NOT_RUN with why "
					+ "it cannot run", command);
		}
	}

	private static boolean notRun(DocCommand command) {
		return NOT_RUN.keySet().stream().anyMatch(command.text()::startsWith);
	}

	// --- curl ---------------------------------------------------------------------------------------------------

	private void checkCurl(DocCommand command) throws Exception {
		List<DocCommand> launches = command.launch();
		for (DocCommand launch : launches) {
			if (launch.text().contains("uid-samples-sharded")) {
				// The sharded sample's own URLs: ShardedSampleTests sends each of them.
				return;
			}
			if (profiles(launch).contains("leaf")) {
				// Leaf's URLs on the leaf profile, which needs a Leaf deployment: LeafApiTests answers them.
				return;
			}
		}
		String[] pipeline = command.text().split("\\s+\\|\\s+", 2);
		List<String> curl = tokens(pipeline[0]);
		String method = "GET";
		boolean showsHeaders = false;
		URI uri = null;
		for (int i = 1; i < curl.size(); i++) {
			String token = curl.get(i);
			if (token.equals("-X")) {
				method = curl.get(++i);
			}
			else if (token.equals("-w")) {
				i++;
			}
			else if (token.startsWith("-")) {
				showsHeaders |= token.contains("i");
			}
			else {
				uri = URI.create("http://" + token);
			}
		}
		assertThat(uri).as("%s: the address", command).isNotNull();
		assertThat(uri.getHost()).as("%s: the host", command).isEqualTo("localhost");
		Sample sample = launches.stream().anyMatch((launch) -> argument(launch, "uid.generator").equals("segment"))
				? Sample.SEGMENT : Sample.DEFAULT;
		ConfigurableApplicationContext context = running(sample);
		String port = localPortFor(command, uri.getPort(), context);
		String pathAndQuery = uri.getRawPath() + ((uri.getRawQuery() != null) ? "?" + uri.getRawQuery() : "");
		if (pathAndQuery.contains("...")) {
			// A placeholder for an ID of the reader's: one the sample just issued.
			pathAndQuery = pathAndQuery.replace("...", get(context, "server", "/uid").body());
		}
		HttpResponse<String> response = this.http.send(
				HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + pathAndQuery))
					.method(method, HttpRequest.BodyPublishers.noBody())
					.timeout(Duration.ofSeconds(20))
					.build(),
				HttpResponse.BodyHandlers.ofString());
		List<String> shown = new ArrayList<>(command.output());
		if (shown.isEmpty() && !command.comment().isEmpty()) {
			shown.add(command.comment());
		}
		int expectedStatus = 200;
		if (showsHeaders && !shown.isEmpty() && shown.get(0).startsWith("HTTP/")) {
			expectedStatus = Integer.parseInt(shown.get(0).split(" ")[1]);
			int blank = shown.indexOf("");
			shown = (blank < 0) ? List.of() : shown.subList(blank + 1, shown.size());
		}
		String shownText = String.join("\n", shown).strip();
		JsonNode shownJson = parseOrNull(shownText);
		if (!showsHeaders && shownJson != null && shownJson.isObject() && shownJson.has("status")
				&& shownJson.get("status").isInt()) {
			expectedStatus = shownJson.get("status").asInt();
		}
		if (pipeline.length > 1) {
			// jq shows what it picked whatever the status (curl -s does not fail on one): a refusal's message, say.
			assertThat(response.statusCode()).as("%s answered (%s)", command, response.body()).isLessThan(500);
		}
		else {
			assertThat(response.statusCode()).as("%s answered (%s)", command, response.body())
				.isEqualTo(expectedStatus);
		}
		if (shownText.isEmpty()) {
			return;
		}
		String answered = (pipeline.length > 1) ? jq(command, pipeline[1], response.body()) : response.body().strip();
		assertLike(command, shownText, shownJson, answered);
	}

	/**
	 * Applies the few {@code jq} filters the pages use: none, {@code .a.b}, {@code -r .a} and {@code -c '{a, b}'}.
	 */
	private String jq(DocCommand command, String filter, String body) {
		List<String> words = tokens(filter);
		assertThat(words.get(0)).as("%s: a pipe into jq", command).isEqualTo("jq");
		JsonNode node = this.json.readTree(body);
		boolean raw = false;
		for (String word : words.subList(1, words.size())) {
			if (word.equals("-r")) {
				raw = true;
			}
			else if (word.equals("-c")) {
				continue;
			}
			else if (word.startsWith(".")) {
				for (String field : word.substring(1).split("\\.")) {
					if (!field.isEmpty()) {
						assertThat(node.has(field)).as("%s: the answer %s has %s", command, node, field).isTrue();
						node = node.get(field);
					}
				}
			}
			else if (word.startsWith("{")) {
				Map<String, JsonNode> picked = new LinkedHashMap<>();
				for (String field : word.substring(1, word.length() - 1).split(",")) {
					String name = field.strip();
					assertThat(node.has(name)).as("%s: the answer %s has %s", command, node, name).isTrue();
					picked.put(name, node.get(name));
				}
				node = this.json.valueToTree(picked);
			}
			else {
				fail("%s: a jq filter DocCommandsTests does not know: %s", command, word);
			}
		}
		return (raw && node.isString()) ? node.asString() : node.toString();
	}

	/** The answer has the shape of what the page shows: the same fields, a number for a number, a text alike. */
	private void assertLike(DocCommand command, String shownText, JsonNode shown, String answered) {
		if (shown == null) {
			// Text: the same words up to the first colon (an ID's message names the ID the command sent).
			String head = shownText.split(":", 2)[0];
			assertThat(answered).as("%s: answers like the page shows", command).startsWith(head);
			return;
		}
		JsonNode actual = parseOrNull(answered);
		assertThat(actual).as("%s: answers JSON like the page shows, but answered %s", command, answered).isNotNull();
		if (shown.isNumber()) {
			assertThat(actual.isNumber()).as("%s: answers a number, not %s", command, answered).isTrue();
		}
		else if (shown.isArray()) {
			assertThat(actual.isArray()).as("%s: answers an array, not %s", command, answered).isTrue();
			assertThat(actual.size()).as("%s: answers as many as the page shows: %s", command, answered)
				.isEqualTo(shown.size());
		}
		else if (shown.isObject()) {
			assertThat(fieldPaths(actual, "")).as("%s: answers the fields the page shows: %s", command, answered)
				.isEqualTo(fieldPaths(shown, ""));
		}
	}

	private static Set<String> fieldPaths(JsonNode node, String prefix) {
		Set<String> paths = new TreeSet<>();
		if (node.isObject()) {
			for (String name : node.propertyNames()) {
				paths.add(prefix + name);
				paths.addAll(fieldPaths(node.get(name), prefix + name + "."));
			}
		}
		return paths;
	}

	private JsonNode parseOrNull(String text) {
		if (text.isEmpty()) {
			return null;
		}
		try {
			return this.json.readTree(text);
		}
		catch (RuntimeException ex) {
			return null;
		}
	}

	/** The sample's port a page's port stands for: the service's or the actuator's of a launch of the page. */
	private String localPortFor(DocCommand command, int pagePort, ConfigurableApplicationContext context) {
		List<DocCommand> launches = command.launch();
		List<String> servicePorts = new ArrayList<>();
		List<String> actuatorPorts = new ArrayList<>();
		if (launches.isEmpty()) {
			servicePorts.add(this.sampleDefaults.getProperty("server.port"));
			actuatorPorts.add(this.sampleDefaults.getProperty("management.server.port"));
		}
		for (DocCommand launch : launches) {
			servicePorts.add(servicePort(launch));
			actuatorPorts.add(actuatorPort(launch));
		}
		String port = String.valueOf(pagePort);
		if (actuatorPorts.contains(port)) {
			return context.getEnvironment().getProperty("local.management.port");
		}
		if (servicePorts.contains(port)) {
			return context.getEnvironment().getProperty("local.server.port");
		}
		throw new AssertionError(command + ": port " + pagePort + " is none of the sample's as the page starts it "
				+ "(service " + servicePorts + ", actuator " + actuatorPorts + ")");
	}

	private HttpResponse<String> get(ConfigurableApplicationContext context, String which, String path)
			throws IOException, InterruptedException {
		String port = context.getEnvironment()
			.getProperty(which.equals("server") ? "local.server.port" : "local.management.port");
		return this.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.timeout(Duration.ofSeconds(20))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	private ConfigurableApplicationContext running(Sample sample) throws IOException {
		ConfigurableApplicationContext context = this.running.get(sample);
		if (context == null) {
			List<String> args = new ArrayList<>(List.of("--server.port=0", "--management.server.port=0"));
			if (sample == Sample.DEFAULT) {
				Path dir = Files.createTempDirectory("uid-doc-commands");
				args.add("--uid.worker.static.state-file=" + dir.resolve("worker-1.state"));
			}
			else {
				args.addAll(List.of("--spring.profiles.active=mysql", "--uid.generator=segment"));
			}
			context = new SpringApplicationBuilder(UidSamplesApplication.class).run(args.toArray(String[]::new));
			this.running.put(sample, context);
		}
		return context;
	}

	// --- launches -----------------------------------------------------------------------------------------------

	private void checkLaunch(DocCommand command) {
		List<String> tokens = tokens(command.text());
		if (command.text().startsWith("mvn ")) {
			checkModules(command, tokens);
		}
		else {
			String jar = tokens.get(tokens.indexOf("-jar") + 1);
			assertThat(jar).as("%s: the jar the build makes", command)
				.isEqualTo("uid-samples/target/uid-samples-" + projectVersion() + ".jar");
		}
		for (String profile : profiles(command)) {
			assertThat(sampleProfiles()).as("%s: the sample's profiles", command).contains(profile);
		}
		for (String argument : arguments(command)) {
			if (argument.startsWith("--")) {
				assertBound(argument.substring(2).split("=", 2)[0], command.where());
			}
		}
		assertThat(servicePort(command)).as("%s: the service's port apart from the actuator's", command)
			.isNotEqualTo(actuatorPort(command));
	}

	@TestFactory
	Stream<DynamicTest> launchesOfOneBlockUsePortsOfTheirOwn() {
		Set<List<DocCommand>> blocks = new HashSet<>();
		for (DocCommand command : this.commands) {
			List<DocCommand> launches = command.launch().stream().filter((launch) -> !notRun(launch)).toList();
			if (launches.size() > 1) {
				blocks.add(launches);
			}
		}
		assertThat(blocks).as("blocks that start several instances").isNotEmpty();
		return blocks.stream().map((launches) -> DynamicTest.dynamicTest(launches.get(0).where(), () -> {
			List<String> ports = new ArrayList<>();
			for (DocCommand launch : launches) {
				ports.add(servicePort(launch));
				ports.add(actuatorPort(launch));
			}
			assertThat(ports).as("ports of %s", launches).doesNotHaveDuplicates();
		}));
	}

	private String servicePort(DocCommand launch) {
		String port = argument(launch, "server.port");
		return port.isEmpty() ? this.sampleDefaults.getProperty("server.port") : port;
	}

	private String actuatorPort(DocCommand launch) {
		String port = argument(launch, "management.server.port");
		return port.isEmpty() ? this.sampleDefaults.getProperty("management.server.port") : port;
	}

	private List<String> profiles(DocCommand launch) {
		String active = argument(launch, "spring.profiles.active");
		return active.isEmpty() ? List.of() : List.of(active.split(","));
	}

	/** The value of {@code --name=value} among a launch's arguments; empty without it. */
	private static String argument(DocCommand launch, String name) {
		for (String argument : arguments(launch)) {
			if (argument.startsWith("--" + name + "=")) {
				return argument.substring(name.length() + 3);
			}
		}
		return "";
	}

	/** The application's arguments: after the jar, or in {@code -Dspring-boot.run.arguments}. */
	private static List<String> arguments(DocCommand launch) {
		List<String> tokens = tokens(launch.text());
		if (launch.text().startsWith("mvn ")) {
			for (String token : tokens) {
				if (token.startsWith("-Dspring-boot.run.arguments=")) {
					return List.of(token.substring("-Dspring-boot.run.arguments=".length()).split("\\s+"));
				}
			}
			return List.of();
		}
		int jar = tokens.indexOf("-jar");
		return (jar < 0) ? List.of() : tokens.subList(jar + 2, tokens.size());
	}

	private void assertBound(String name, String where) {
		boolean bound = this.knownProperties.contains(name) || this.knownProperties.stream()
			.anyMatch((known) -> name.startsWith(known + ".") || name.startsWith(known + "["));
		assertThat(bound).as("%s: --%s is a property of the starter, Spring Boot or the sample", where, name)
			.isTrue();
	}

	// --- Maven, benchmarks, .ci/repeat, the decoder -------------------------------------------------------------

	private void checkModules(DocCommand command, List<String> tokens) {
		int pl = tokens.indexOf("-pl");
		if (pl < 0) {
			return;
		}
		for (String module : tokens.get(pl + 1).split(",")) {
			assertThat(rootPom()).as("%s: module %s in the build", command, module)
				.contains("<module>" + module + "</module>");
		}
	}

	private void checkBenchmark(DocCommand command) throws IOException {
		List<String> tokens = tokens(command.text().replaceFirst("^\\S*/bin/java", "java"));
		assertThat(tokens.get(2)).as("%s: the jar the build makes", command)
			.isEqualTo("uid-benchmarks/target/uid-benchmarks.jar");
		Path sources = this.root.resolve("uid-benchmarks/src/main/java/io/github/uidgen/benchmarks");
		if (tokens.get(1).equals("-cp")) {
			String className = tokens.get(3);
			assertThat(sources.resolve(className.substring(className.lastIndexOf('.') + 1) + ".java"))
				.as("%s: the class", command)
				.isRegularFile();
			return;
		}
		String part = tokens.get(3);
		Map<String, String> benchmarkSources = benchmarkSources(sources);
		assertThat(benchmarkSources.get("BenchmarkMain.java")).as("%s: a part BenchmarkMain runs", command)
			.contains("\"" + part + "\"");
		if (part.equals("jmh")) {
			assertThat(benchmarkSources).as("%s: the JMH benchmark", command).containsKey(tokens.get(4) + ".java");
			return;
		}
		String allSources = String.join("\n", benchmarkSources.values());
		for (String token : tokens.subList(4, tokens.size())) {
			if (token.startsWith("--")) {
				assertThat(allSources).as("%s: an option the benchmarks read", command)
					.contains("\"" + token.substring(2) + "\"");
			}
		}
	}

	/** The benchmarks' sources by file name, read once for all the benchmark commands. */
	private Map<String, String> benchmarkSources(Path sources) throws IOException {
		if (this.benchmarkSources == null) {
			Map<String, String> read = new LinkedHashMap<>();
			try (Stream<Path> files = Files.walk(sources)) {
				for (Path file : files.filter((path) -> path.toString().endsWith(".java")).toList()) {
					read.put(file.getFileName().toString(), Files.readString(file));
				}
			}
			this.benchmarkSources = read;
		}
		return this.benchmarkSources;
	}

	private void checkRepeat(DocCommand command) {
		List<String> tokens = tokens(command.text().replaceFirst("^BUSY=1 ", ""));
		assertThat(this.root.resolve(".ci/repeat")).as("%s: the script", command).isExecutable();
		if (tokens.size() > 2) {
			String module = tokens.get(2);
			assertThat(this.root.resolve(module)).as("%s: the module", command).isDirectory();
			if (tokens.size() > 3) {
				String className = tokens.get(3).split("#", 2)[0];
				try (Stream<Path> files = Files.walk(this.root.resolve(module).resolve("src/test/java"))) {
					assertThat(files.map((file) -> file.getFileName().toString()))
						.as("%s: the test class", command)
						.contains(className + ".java");
				}
				catch (IOException ex) {
					throw new UncheckedIOException(ex);
				}
			}
		}
	}

	/** Runs Node.js's decoder of the opaque form as the page does, and compares what it prints with the comment. */
	private void checkDecoder(DocCommand command) throws Exception {
		Process node = new ProcessBuilder(tokens(command.text())).directory(this.root.toFile())
			.redirectErrorStream(true)
			.start();
		String printed;
		try (InputStream out = node.getInputStream()) {
			assertThat(node.waitFor(60, TimeUnit.SECONDS)).as("%s: node finished", command).isTrue();
			printed = new String(out.readAllBytes(), StandardCharsets.UTF_8).strip();
		}
		assertThat(node.exitValue()).as("%s: printed %s", command, printed).isZero();
		assertThat(printed).as("%s", command).endsWith(command.comment());
	}

	// --- what the build and the sample have ---------------------------------------------------------------------

	private String rootPom() {
		try {
			return Files.readString(this.root.resolve("pom.xml"));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private String projectVersion() {
		Matcher version = Pattern.compile("<artifactId>uid-parent</artifactId>\\s*<version>([^<]+)</version>")
			.matcher(rootPom());
		assertThat(version.find()).as("uid-parent's version in pom.xml").isTrue();
		return version.group(1);
	}

	private Set<String> sampleProfiles() {
		try (InputStream yaml = new ClassPathResource("application.yml").getInputStream()) {
			Set<String> profiles = new TreeSet<>();
			Matcher matcher = PROFILE.matcher(new String(yaml.readAllBytes(), StandardCharsets.UTF_8));
			while (matcher.find()) {
				profiles.add(matcher.group(1));
			}
			return profiles;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** The sample's own settings, as its first document of application.yml gives them. */
	private static Properties sampleDefaults() {
		YamlPropertiesFactoryBean yaml = new YamlPropertiesFactoryBean();
		yaml.setResources(new ClassPathResource("application.yml"));
		yaml.setDocumentMatchers((properties) -> properties.containsKey("spring.config.activate.on-profile")
				? MatchStatus.NOT_FOUND
				: MatchStatus.FOUND);
		return yaml.getObject();
	}

	/**
	 * Every property name the class path's configuration metadata declares (the starter's, Spring Boot's, the
	 * sample's) and the sample's own settings.
	 */
	private Set<String> knownProperties() {
		Set<String> names = new HashSet<>();
		try {
			for (String resource : List.of("META-INF/spring-configuration-metadata.json",
					"META-INF/additional-spring-configuration-metadata.json")) {
				Enumeration<URL> urls = getClass().getClassLoader().getResources(resource);
				for (URL url : Collections.list(urls)) {
					try (InputStream in = url.openStream()) {
						JsonNode properties = this.json.readTree(in).path("properties");
						properties.forEach((property) -> names.add(property.path("name").asString()));
					}
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		names.addAll(this.sampleDefaults.stringPropertyNames());
		return names;
	}

	/** Splits a command into words as a shell would, single and double quotes kept together and taken off. */
	static List<String> tokens(String command) {
		List<String> tokens = new ArrayList<>();
		StringBuilder word = null;
		char quote = 0;
		for (char c : command.toCharArray()) {
			if (quote != 0) {
				if (c == quote) {
					quote = 0;
				}
				else {
					word.append(c);
				}
			}
			else if (c == '\'' || c == '"') {
				quote = c;
				word = (word != null) ? word : new StringBuilder();
			}
			else if (Character.isWhitespace(c)) {
				if (word != null) {
					tokens.add(word.toString());
					word = null;
				}
			}
			else {
				word = (word != null) ? word : new StringBuilder();
				word.append(c);
			}
		}
		if (word != null) {
			tokens.add(word.toString());
		}
		return tokens;
	}

}
