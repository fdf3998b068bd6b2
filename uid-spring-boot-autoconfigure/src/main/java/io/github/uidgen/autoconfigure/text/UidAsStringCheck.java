package io.github.uidgen.autoconfigure.text;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import io.github.uidgen.jackson.UidAsString;
import io.github.uidgen.text.UidFormats;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfigurationPackages;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.core.type.classreading.MetadataReaderFactory;
import org.springframework.core.type.classreading.SimpleMetadataReaderFactory;
import org.springframework.util.ClassUtils;

/**
 * Fails the start when a {@link UidAsString} in the application's packages asks for a form the application cannot
 * give (the opaque form without {@code uid.text.opaque.key}, the readable form without a layout, a tweak on a form
 * without a key), naming each field and parameter and the property to set: otherwise the first request or JSON
 * value that meets one answers 500. Only classes whose bytes name the annotation are loaded, without initializing.
 */
final class UidAsStringCheck implements SmartInitializingSingleton {

	/** How a class file names the annotation where it is used. */
	private static final byte[] DESCRIPTOR = ("L" + UidAsString.class.getName().replace('.', '/') + ";")
		.getBytes(StandardCharsets.US_ASCII);

	private static final ParameterNameDiscoverer PARAMETER_NAMES = new DefaultParameterNameDiscoverer();

	private final UidFormats formats;

	private final BeanFactory beanFactory;

	private final ClassLoader classLoader;

	UidAsStringCheck(UidFormats formats, BeanFactory beanFactory, ClassLoader classLoader) {
		this.formats = formats;
		this.beanFactory = beanFactory;
		this.classLoader = (classLoader != null) ? classLoader : ClassUtils.getDefaultClassLoader();
	}

	@Override
	public void afterSingletonsInstantiated() {
		if (!AutoConfigurationPackages.has(this.beanFactory)) {
			return;
		}
		Set<String> problems = new LinkedHashSet<>();
		boolean opaque = false;
		for (Class<?> type : annotatedClasses(AutoConfigurationPackages.get(this.beanFactory))) {
			for (Use use : uses(type)) {
				try {
					UidAsStringFormatterFactory.formOf(this.formats, use.annotation);
				}
				catch (IllegalArgumentException ex) {
					problems.add(use.description + ": " + ex.getMessage());
					opaque |= use.annotation.value() == UidAsString.Form.OPAQUE;
				}
			}
		}
		if (!problems.isEmpty()) {
			String key = UidTextProperties.PREFIX + ".opaque.key";
			throw new UidTextPropertyException(opaque ? key : UidTextProperties.PREFIX,
					"@UidAsString asks for text forms this application does not have:\n    - "
							+ String.join("\n    - ", problems),
					opaque ? "Set " + key + " to a base64 key of 16, 24 or 32 random bytes (openssl rand -base64 32), "
							+ "or name another form on these @UidAsString" : "Name another form on these @UidAsString");
		}
	}

	private List<Class<?>> annotatedClasses(List<String> packages) {
		PathMatchingResourcePatternResolver resolver = new PathMatchingResourcePatternResolver(this.classLoader);
		MetadataReaderFactory readers = new SimpleMetadataReaderFactory(resolver);
		Set<String> names = new LinkedHashSet<>();
		try {
			for (String name : packages) {
				for (Resource resource : resolver
					.getResources("classpath*:" + ClassUtils.convertClassNameToResourcePath(name) + "/**/*.class")) {
					if (namesAnnotation(resource)) {
						names.add(readers.getMetadataReader(resource).getClassMetadata().getClassName());
					}
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not read the application's classes to check @UidAsString", ex);
		}
		List<Class<?>> classes = new ArrayList<>();
		for (String name : names) {
			try {
				classes.add(Class.forName(name, false, this.classLoader));
			}
			catch (ClassNotFoundException | LinkageError ex) {
				// A class that cannot load here is not used by this application.
			}
		}
		return classes;
	}

	private static boolean namesAnnotation(Resource resource) throws IOException {
		byte[] bytes;
		try (InputStream in = resource.getInputStream()) {
			bytes = in.readAllBytes();
		}
		outer: for (int i = 0; i <= bytes.length - DESCRIPTOR.length; i++) {
			for (int j = 0; j < DESCRIPTOR.length; j++) {
				if (bytes[i + j] != DESCRIPTOR[j]) {
					continue outer;
				}
			}
			return true;
		}
		return false;
	}

	/** The fields, methods and method parameters of a class annotated {@link UidAsString}. */
	private static List<Use> uses(Class<?> type) {
		List<Use> uses = new ArrayList<>();
		String name = ClassUtils.getShortName(type);
		try {
			for (Field field : type.getDeclaredFields()) {
				add(uses, field, "field " + name + "." + field.getName());
			}
			for (Method method : type.getDeclaredMethods()) {
				if (type.isRecord() && method.getParameterCount() == 0 && hasField(type, method.getName())) {
					continue; // a record component's accessor: its field is checked
				}
				String signature = name + "." + method.getName() + "("
						+ String.join(", ", java.util.Arrays.stream(method.getParameterTypes())
							.map(Class::getSimpleName)
							.toList())
						+ ")";
				add(uses, method, "method " + signature);
				String[] names = PARAMETER_NAMES.getParameterNames(method);
				Parameter[] parameters = method.getParameters();
				for (int i = 0; i < parameters.length; i++) {
					add(uses, parameters[i], "parameter '" + ((names != null) ? names[i] : parameters[i].getName())
							+ "' of " + signature);
				}
			}
		}
		catch (LinkageError ex) {
			// Types of its members are missing here: the class cannot be used by this application.
		}
		return uses;
	}

	private static boolean hasField(Class<?> type, String name) {
		try {
			type.getDeclaredField(name);
			return true;
		}
		catch (NoSuchFieldException ex) {
			return false;
		}
	}

	private static void add(List<Use> uses, AnnotatedElement element, String description) {
		UidAsString annotation = element.getAnnotation(UidAsString.class);
		if (annotation != null) {
			uses.add(new Use(annotation, description));
		}
	}

	private record Use(UidAsString annotation, String description) {
	}

}
