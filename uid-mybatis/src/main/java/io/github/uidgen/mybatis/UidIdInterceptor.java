package io.github.uidgen.mybatis;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.persistence.UidId;
import org.apache.ibatis.executor.Executor;
import org.apache.ibatis.mapping.MappedStatement;
import org.apache.ibatis.mapping.SqlCommandType;
import org.apache.ibatis.plugin.Interceptor;
import org.apache.ibatis.plugin.Intercepts;
import org.apache.ibatis.plugin.Invocation;
import org.apache.ibatis.plugin.Signature;
import org.apache.ibatis.reflection.MetaObject;

/**
 * A MyBatis plugin that gives the objects an {@code INSERT} writes their IDs: every {@code long} or {@code Long}
 * property marked {@link UidId} that is {@code null} or {@code 0} gets the next ID of the application's
 * {@link UidGenerator} before the statement is built; IDs that are already set are left alone.
 *
 * <p>The parameter may be one object, a collection or array of them, or the map MyBatis makes of several
 * {@code @Param}s (each value, and each element of a value that is a collection or array, is filled). It works with
 * every executor, the batch executor included, because it runs on {@code Executor.update}, once per statement.
 * Other statements pass through untouched.
 *
 * <p>With Spring Boot, the module's auto-configuration registers it as a bean, which mybatis-spring-boot-starter
 * and MyBatis-Plus add to their {@code SqlSessionFactory}; without Spring, add it with
 * {@code configuration.addInterceptor(new UidIdInterceptor(generator))}.
 */
@Intercepts(@Signature(type = Executor.class, method = "update", args = { MappedStatement.class, Object.class }))
public final class UidIdInterceptor implements Interceptor {

	/** The {@code @UidId} properties of each class, looked up once per class. */
	private static final ClassValue<List<String>> ID_PROPERTIES = new ClassValue<>() {

		@Override
		protected List<String> computeValue(Class<?> type) {
			return idProperties(type);
		}

	};

	private final Supplier<UidGenerator> uidGeneratorLookup;

	private volatile UidGenerator uidGenerator;

	/**
	 * Creates the interceptor.
	 * @param uidGenerator the generator of the IDs
	 */
	public UidIdInterceptor(UidGenerator uidGenerator) {
		this(() -> uidGenerator);
	}

	/**
	 * Creates the interceptor with a generator looked up at the first insert.
	 * @param uidGenerator supplies the generator of the IDs
	 */
	public UidIdInterceptor(Supplier<UidGenerator> uidGenerator) {
		this.uidGeneratorLookup = uidGenerator;
	}

	@Override
	public Object intercept(Invocation invocation) throws Throwable {
		Object[] args = invocation.getArgs();
		MappedStatement statement = (MappedStatement) args[0];
		if (statement.getSqlCommandType() == SqlCommandType.INSERT) {
			fill(statement, args[1]);
		}
		return invocation.proceed();
	}

	private void fill(MappedStatement statement, Object parameter) {
		if (parameter instanceof Map<?, ?> parameters) {
			// @Param names and MyBatis's param1, param2, ... name the same objects: the second visit finds them set.
			for (Object value : parameters.values()) {
				fillAll(statement, value);
			}
		}
		else {
			fillAll(statement, parameter);
		}
	}

	private void fillAll(MappedStatement statement, Object value) {
		if (value instanceof Collection<?> elements) {
			for (Object element : elements) {
				fillOne(statement, element);
			}
		}
		else if (value instanceof Object[] elements) {
			for (Object element : elements) {
				fillOne(statement, element);
			}
		}
		else {
			fillOne(statement, value);
		}
	}

	private void fillOne(MappedStatement statement, Object entity) {
		if (entity == null) {
			return;
		}
		List<String> properties = ID_PROPERTIES.get(entity.getClass());
		if (properties.isEmpty()) {
			return;
		}
		MetaObject meta = statement.getConfiguration().newMetaObject(entity);
		for (String property : properties) {
			Object current = meta.getValue(property);
			if (current == null || ((Long) current) == 0L) {
				meta.setValue(property, uidGenerator().getUID());
			}
		}
	}

	private UidGenerator uidGenerator() {
		UidGenerator generator = this.uidGenerator;
		if (generator == null) {
			generator = this.uidGeneratorLookup.get();
			this.uidGenerator = generator;
		}
		return generator;
	}

	/** Finds the annotated fields and getters of a class and its superclasses, refusing what cannot hold an ID. */
	private static List<String> idProperties(Class<?> type) {
		if (type.getName().startsWith("java.")) {
			return List.of();
		}
		List<String> properties = new ArrayList<>();
		for (Class<?> current = type; current != null && current != Object.class; current = current.getSuperclass()) {
			for (Field field : current.getDeclaredFields()) {
				if (field.isAnnotationPresent(UidId.class) && !Modifier.isStatic(field.getModifiers())) {
					check(type, field.getName(), field.getType());
					if (Modifier.isFinal(field.getModifiers())) {
						throw new IllegalStateException("@UidId on " + type.getName() + "." + field.getName()
								+ " cannot be filled: the field is final" + (type.isRecord() ? " (a record)" : "")
								+ ". Give the object its ID when you create it (UidGenerator.getUID()), or make "
								+ "the field mutable.");
					}
					properties.add(field.getName());
				}
			}
			for (Method method : current.getDeclaredMethods()) {
				if (method.isAnnotationPresent(UidId.class) && method.getParameterCount() == 0) {
					String property = propertyName(method.getName());
					check(type, property, method.getReturnType());
					if (!properties.contains(property)) {
						properties.add(property);
					}
				}
			}
		}
		return List.copyOf(properties);
	}

	private static void check(Class<?> type, String property, Class<?> propertyType) {
		if (propertyType != Long.class && propertyType != Long.TYPE) {
			throw new IllegalStateException("@UidId needs a long or Long ID, but " + type.getName() + "." + property
					+ " is " + propertyType.getName() + "; change the ID's type to Long.");
		}
	}

	private static String propertyName(String getter) {
		String name = getter.startsWith("get") ? getter.substring(3) : getter;
		return name.isEmpty() ? getter : Character.toLowerCase(name.charAt(0)) + name.substring(1);
	}

}
