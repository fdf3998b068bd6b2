package io.github.uidgen;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keeps {@code docs/architecture.md} true: every module, package and file it names exists, and every module of the
 * build is named there, so a renamed package or a new module fails here until the page follows.
 */
class ArchitectureDocTests {

	private static final Pattern MODULE = Pattern.compile("`(uid-[a-z0-9-]+)`");

	private static final Pattern PACKAGE = Pattern.compile("`(io\\.github\\.uidgen(?:\\.[a-z0-9]+)*)`");

	private static final Pattern LINK = Pattern.compile("\\]\\(([^)#:]+)\\)");

	private static final Pattern POM_MODULE = Pattern.compile("<module>([^<]+)</module>");

	private static Path root;

	private static String page;

	@BeforeAll
	static void readPage() throws IOException {
		Path dir = Path.of("").toAbsolutePath();
		while (dir != null && !Files.isRegularFile(dir.resolve("docs/architecture.md"))) {
			dir = dir.getParent();
		}
		assertThat(dir).as("a directory above %s holding docs/architecture.md", Path.of("").toAbsolutePath())
			.isNotNull();
		root = dir;
		page = Files.readString(dir.resolve("docs/architecture.md"), StandardCharsets.UTF_8);
	}

	@Test
	void everyModuleNamedIsAModuleOfTheBuild() throws IOException {
		Set<String> modules = buildModules();
		Set<String> named = matches(MODULE);
		assertThat(named).as("modules named in docs/architecture.md").isNotEmpty();
		assertThat(modules).as("the modules of the build (pom.xml)").containsAll(named);
	}

	@Test
	void everyModuleOfTheBuildIsNamed() throws IOException {
		assertThat(matches(MODULE)).as("modules named in docs/architecture.md").containsAll(buildModules());
	}

	@Test
	void everyPackageNamedExists() throws IOException {
		Set<String> packages = matches(PACKAGE);
		assertThat(packages).as("packages named in docs/architecture.md").isNotEmpty();
		List<Path> sourceRoots = sourceRoots();
		for (String name : packages) {
			Path relative = Path.of(name.replace('.', '/'));
			assertThat(sourceRoots.stream().anyMatch((sources) -> Files.isDirectory(sources.resolve(relative))))
				.as("package %s named in docs/architecture.md exists in some module's sources", name)
				.isTrue();
		}
	}

	@Test
	void everyFileLinkedExists() {
		Set<String> links = matches(LINK);
		assertThat(links).as("links in docs/architecture.md").isNotEmpty();
		Path docs = root.resolve("docs");
		for (String link : links) {
			assertThat(docs.resolve(link).normalize()).as("the file linked as %s from docs/architecture.md", link)
				.exists();
		}
	}

	@Test
	void theReadmeLinksIt() throws IOException {
		assertThat(Files.readString(root.resolve("README.md"), StandardCharsets.UTF_8))
			.contains("(docs/architecture.md)");
	}

	private static Set<String> matches(Pattern pattern) {
		Set<String> found = new LinkedHashSet<>();
		Matcher matcher = pattern.matcher(page);
		while (matcher.find()) {
			found.add(matcher.group(1));
		}
		return found;
	}

	private static Set<String> buildModules() throws IOException {
		Set<String> modules = new LinkedHashSet<>();
		Matcher matcher = POM_MODULE.matcher(Files.readString(root.resolve("pom.xml"), StandardCharsets.UTF_8));
		while (matcher.find()) {
			modules.add(matcher.group(1).trim());
		}
		assertThat(modules).as("modules of pom.xml").isNotEmpty();
		return modules;
	}

	private static List<Path> sourceRoots() throws IOException {
		try (Stream<Path> modules = Files.list(root)) {
			return modules.filter((module) -> Files.isRegularFile(module.resolve("pom.xml")))
				.flatMap((module) -> Stream.of(module.resolve("src/main/java"), module.resolve("src/test/java")))
				.filter(Files::isDirectory)
				.toList();
		}
	}

}
