package io.github.uidgen.benchmarks;

import java.lang.reflect.Method;

/**
 * Platform threads, or virtual threads on the default carrier pool (Java 21 and later, looked up by reflection as
 * the jar is built for Java 17).
 */
enum ThreadKind {

	PLATFORM {
		@Override
		Thread newThread(Runnable task, String name) {
			return new Thread(task, name);
		}
	},

	VIRTUAL {
		@Override
		Thread newThread(Runnable task, String name) {
			try {
				Object builder = OF_VIRTUAL.invoke(null);
				builder = BUILDER_NAME.invoke(builder, name);
				return (Thread) UNSTARTED.invoke(builder, task);
			}
			catch (ReflectiveOperationException | RuntimeException ex) {
				throw new IllegalStateException("Virtual threads need Java 21 or later, this is "
						+ Runtime.version(), ex);
			}
		}
	};

	private static final Method OF_VIRTUAL = method(Thread.class, "ofVirtual");

	private static final Method BUILDER_NAME = method(builderClass(), "name", String.class);

	private static final Method UNSTARTED = method(builderClass(), "unstarted", Runnable.class);

	/**
	 * Creates a thread, not started.
	 * @param task what it runs
	 * @param name its name
	 * @return the thread
	 */
	abstract Thread newThread(Runnable task, String name);

	/**
	 * Returns whether this JVM has virtual threads.
	 * @return whether the Java version is 21 or later
	 */
	static boolean virtualAvailable() {
		return OF_VIRTUAL != null && UNSTARTED != null;
	}

	private static Class<?> builderClass() {
		try {
			return Class.forName("java.lang.Thread$Builder");
		}
		catch (ClassNotFoundException ex) {
			return null;
		}
	}

	private static Method method(Class<?> type, String name, Class<?>... parameters) {
		if (type == null) {
			return null;
		}
		try {
			return type.getMethod(name, parameters);
		}
		catch (NoSuchMethodException ex) {
			return null;
		}
	}

}
