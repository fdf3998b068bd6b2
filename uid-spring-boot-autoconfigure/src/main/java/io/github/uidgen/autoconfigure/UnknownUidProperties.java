package io.github.uidgen.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.boot.origin.Origin;
import org.springframework.core.env.Environment;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * Warns about {@code uid.*} properties that no part of uid reads, naming the closest known one: a typo such as
 * {@code uid.segment.stpe} would otherwise leave the default in force without a word. The known properties are those
 * of the configuration metadata that Spring Boot's processor writes into each uid jar, so a module's own properties
 * count wherever it is on the class path.
 *
 * <p>Names are compared the way Spring Boot binds them ({@code boostPower}, {@code boost-power} and
 * {@code boost_power} are one property), list indexes are ignored, and any key under a map property is known.
 * Environment variables are left out: platforms set {@code UID_*} variables of their own (Kubernetes does for a
 * service named {@code uid}).
 *
 * <p>It runs at every start of every application with uid, so it stays cheap: nothing is read when no {@code uid.*}
 * property is set, of the metadata files on the class path (half a megabyte of Spring Boot's own in a web
 * application with the actuator) only those that name a {@code uid.*} property are read further, and those are
 * searched for their properties' names and types rather than parsed.
 */
final class UnknownUidProperties {

	private static final Log logger = LogFactory.getLog(UnknownUidProperties.class);

	static final String METADATA = "META-INF/spring-configuration-metadata.json";

	private static final ConfigurationPropertyName UID = ConfigurationPropertyName.of(UidProperties.PREFIX);

	/** How a metadata file that names a uid property is told apart without parsing it: {@code "name": "uid.…"}. */
	private static final String UID_NAME = "\"" + UidProperties.PREFIX + ".";

	/** A guess further than this many edits from the name is no help. */
	private static final int MAX_DISTANCE = 3;

	/** Canonical name of every known property, to its name as documented. */
	private final Map<String, String> properties;

	/** Canonical names of map properties: every key under them is known. */
	private final List<String> maps;

	private UnknownUidProperties(Map<String, String> properties, List<String> maps) {
		this.properties = properties;
		this.maps = maps;
	}

	/**
	 * Logs a warning for every {@code uid.*} property set in the environment that no part of uid reads; reads the
	 * configuration metadata only when some {@code uid.*} property is set.
	 * @param environment the application's environment
	 * @param classLoader the application's class loader
	 * @return the unknown names, as set
	 */
	static List<String> warnAboutUnknown(Environment environment, ClassLoader classLoader) {
		if (setProperties(environment).isEmpty()) {
			return List.of();
		}
		return load(classLoader).warn(environment);
	}

	/**
	 * Reads the known {@code uid.*} properties from every configuration metadata file on the class path.
	 * @param classLoader the application's class loader
	 * @return the known properties; none when no metadata is found, and then nothing is reported
	 */
	static UnknownUidProperties load(ClassLoader classLoader) {
		Map<String, String> properties = new LinkedHashMap<>();
		List<String> maps = new ArrayList<>();
		try {
			Enumeration<URL> resources = classLoader.getResources(METADATA);
			while (resources.hasMoreElements()) {
				String json = read(resources.nextElement());
				if (!json.contains(UID_NAME)) {
					continue;
				}
				for (String[] property : properties(json)) {
					String name = property[0];
					if (!UID.isAncestorOf(ConfigurationPropertyName.adapt(name, '.'))) {
						continue;
					}
					properties.put(canonical(name), name);
					String type = property[1];
					if (type != null && type.startsWith("java.util.Map<")) {
						maps.add(canonical(name));
					}
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			logger.debug("uid configuration metadata could not be read; unknown uid properties are not reported", ex);
			return new UnknownUidProperties(Map.of(), List.of());
		}
		return new UnknownUidProperties(properties, maps);
	}

	/**
	 * Logs a warning for every {@code uid.*} property set in the environment that is not known.
	 * @param environment the application's environment
	 * @return the unknown names, as set
	 */
	List<String> warn(Environment environment) {
		List<String> unknown = new ArrayList<>();
		if (this.properties.isEmpty()) {
			return unknown;
		}
		Set<String> reported = new HashSet<>();
		for (SetProperty set : setProperties(environment)) {
			ConfigurationPropertyName name = set.name();
			if (isKnown(name) || !reported.add(canonical(name.toString()))) {
				continue;
			}
			unknown.add(name.toString());
			ConfigurationProperty property = set.source().getConfigurationProperty(name);
			Origin origin = (property != null) ? property.getOrigin() : null;
			String closest = closest(name);
			logger.warn("Unknown uid property " + name + ((origin != null) ? " (" + origin + ")" : "")
					+ " is ignored: no part of uid reads it"
					+ ((closest != null) ? "; did you mean " + closest + "?" : "."));
		}
		return unknown;
	}

	/** Every {@code uid.*} name set in the environment, environment variables left out, with where it is set. */
	private static List<SetProperty> setProperties(Environment environment) {
		List<SetProperty> set = new ArrayList<>();
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			if (!(source instanceof IterableConfigurationPropertySource iterable)
					|| source.getUnderlyingSource() instanceof SystemEnvironmentPropertySource
					|| isSystemEnvironment(source.getUnderlyingSource())) {
				continue;
			}
			for (ConfigurationPropertyName name : iterable) {
				if (UID.isAncestorOf(name)) {
					set.add(new SetProperty(name, source));
				}
			}
		}
		return set;
	}

	private record SetProperty(ConfigurationPropertyName name, ConfigurationPropertySource source) {
	}

	private boolean isKnown(ConfigurationPropertyName name) {
		String canonical = canonical(name.toString());
		if (this.properties.containsKey(canonical)) {
			return true;
		}
		for (String map : this.maps) {
			if (canonical.startsWith(map + ".")) {
				return true;
			}
		}
		return false;
	}

	/** The known property fewest edits away, or {@code null} when none is close enough to be a likely typo. */
	private String closest(ConfigurationPropertyName name) {
		String canonical = canonical(name.toString());
		String best = null;
		int bestDistance = MAX_DISTANCE + 1;
		for (Map.Entry<String, String> known : this.properties.entrySet()) {
			int distance = distance(canonical, known.getKey());
			if (distance < bestDistance) {
				best = known.getValue();
				bestDistance = distance;
			}
		}
		return best;
	}

	/** Lower case, list indexes dropped, and only letters and digits within each element, as Boot binds names. */
	private static String canonical(String name) {
		String withoutIndexes = name.replaceAll("\\[\\d+]", "");
		StringBuilder canonical = new StringBuilder(withoutIndexes.length());
		for (char c : withoutIndexes.toLowerCase(Locale.ROOT).toCharArray()) {
			if (Character.isLetterOrDigit(c) || c == '.') {
				canonical.append(c);
			}
		}
		return canonical.toString();
	}

	/** Edits (insert, delete, replace, swap of neighbours) between two names: optimal string alignment distance. */
	static int distance(String a, String b) {
		int[][] d = new int[a.length() + 1][b.length() + 1];
		for (int i = 0; i <= a.length(); i++) {
			d[i][0] = i;
		}
		for (int j = 0; j <= b.length(); j++) {
			d[0][j] = j;
		}
		for (int i = 1; i <= a.length(); i++) {
			for (int j = 1; j <= b.length(); j++) {
				int cost = (a.charAt(i - 1) == b.charAt(j - 1)) ? 0 : 1;
				d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
				if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
					d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
				}
			}
		}
		return d[a.length()][b.length()];
	}

	private static boolean isSystemEnvironment(Object source) {
		return source instanceof PropertySource<?> propertySource
				&& "systemEnvironment".equals(propertySource.getName());
	}

	private static String read(URL url) throws IOException {
		try (InputStream in = url.openStream()) {
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
	}

	/**
	 * The name and type ({@code null} when not given) of every property of a metadata file. The file is Spring Boot's
	 * processor's output, so its keys are found by searching rather than parsing: a quote inside a JSON string is
	 * escaped, so {@code "name"} as a key cannot be mistaken for text in a description. Parsing the JSON (uid's own
	 * file is 40 kB) cost 70 to 100 ms at every start, in code that had not run before.
	 */
	static List<String[]> properties(String json) {
		List<String[]> properties = new ArrayList<>();
		int from = json.indexOf("\"properties\"");
		if (from < 0) {
			return properties;
		}
		// The processor writes groups, properties, hints and ignored properties, in that order.
		int to = json.length();
		for (String after : List.of("\"hints\"", "\"ignored\"")) {
			int at = json.indexOf(after, from);
			to = (at < 0) ? to : Math.min(to, at);
		}
		int name = valueOf(json, "\"name\"", from, to);
		while (name >= 0) {
			int next = valueOf(json, "\"name\"", name, to);
			int type = valueOf(json, "\"type\"", name, (next < 0) ? to : next);
			properties.add(new String[] { string(json, name), (type < 0) ? null : string(json, type) });
			name = next;
		}
		return properties;
	}

	/** Where the string value of the next {@code key} between the two positions begins, or -1. */
	private static int valueOf(String json, String key, int from, int to) {
		int at = json.indexOf(key, from);
		while (at >= 0 && at < to) {
			int i = at + key.length();
			while (i < to && Character.isWhitespace(json.charAt(i))) {
				i++;
			}
			if (i < to && json.charAt(i) == ':') {
				i++;
				while (i < to && Character.isWhitespace(json.charAt(i))) {
					i++;
				}
				if (i < to && json.charAt(i) == '"') {
					return i + 1;
				}
			}
			at = json.indexOf(key, at + 1);
		}
		return -1;
	}

	/** The JSON string that begins at a position; property names and types hold no escapes. */
	private static String string(String json, int start) {
		int end = json.indexOf('"', start);
		return json.substring(start, (end < 0) ? json.length() : end);
	}

}
