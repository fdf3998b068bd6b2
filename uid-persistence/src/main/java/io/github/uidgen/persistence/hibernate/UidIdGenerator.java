package io.github.uidgen.persistence.hibernate;

import java.lang.reflect.Member;
import java.util.EnumSet;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.persistence.UidId;
import org.hibernate.MappingException;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.generator.BeforeExecutionGenerator;
import org.hibernate.generator.EventType;
import org.hibernate.generator.EventTypeSets;
import org.hibernate.generator.GeneratorCreationContext;
import org.hibernate.resource.beans.container.spi.BeanContainer;
import org.hibernate.resource.beans.spi.BeanInstanceProducer;
import org.hibernate.resource.beans.spi.ManagedBeanRegistry;
import org.hibernate.service.ServiceRegistry;

/**
 * The Hibernate generator behind {@link UidId}: each persisted entity gets its ID from the {@link UidGenerator} of
 * the bean container Hibernate runs in (with Spring Boot, the application context, through Spring's
 * {@code SpringBeanContainer}).
 *
 * <p>The generator bean is looked up at the first insert, not while Hibernate builds its metadata, so an application
 * whose {@code UidGenerator} needs beans that need the {@code EntityManagerFactory} still starts.
 */
public final class UidIdGenerator implements BeforeExecutionGenerator {

	private static final long serialVersionUID = 1L;

	private static final BeanContainer.LifecycleOptions SHARED_BEAN = new BeanContainer.LifecycleOptions() {

		@Override
		public boolean canUseCachedReferences() {
			return true;
		}

		@Override
		public boolean useJpaCompliantCreation() {
			return false;
		}

	};

	private final String entityName;

	private final transient ServiceRegistry serviceRegistry;

	private transient volatile UidGenerator uidGenerator;

	/**
	 * Creates the generator of one {@link UidId} property; called by Hibernate.
	 * @param annotation the annotation on the property
	 * @param member the annotated field or getter
	 * @param context what Hibernate knows about the property
	 */
	public UidIdGenerator(UidId annotation, Member member, GeneratorCreationContext context) {
		Class<?> type = context.getProperty().getType().getReturnedClass();
		this.entityName = context.getPersistentClass().getEntityName();
		if (type != Long.class && type != Long.TYPE) {
			throw new MappingException("@UidId needs a long or Long ID, but " + this.entityName + "."
					+ member.getName() + " is " + type.getName() + "; change the ID's type to Long.");
		}
		this.serviceRegistry = context.getServiceRegistry();
	}

	@Override
	public Object generate(SharedSessionContractImplementor session, Object owner, Object currentValue,
			EventType eventType) {
		return uidGenerator().getUID();
	}

	private UidGenerator uidGenerator() {
		UidGenerator generator = this.uidGenerator;
		if (generator == null) {
			generator = lookUp();
			this.uidGenerator = generator;
		}
		return generator;
	}

	private UidGenerator lookUp() {
		BeanContainer container = (this.serviceRegistry != null)
				? this.serviceRegistry.requireService(ManagedBeanRegistry.class).getBeanContainer() : null;
		if (container == null) {
			throw missing("Hibernate runs without a bean container");
		}
		return container.getBean(UidGenerator.class, SHARED_BEAN, new BeanInstanceProducer() {

			@Override
			public <B> B produceBeanInstance(Class<B> beanType) {
				throw missing("the bean container has no " + beanType.getName() + " bean");
			}

			@Override
			public <B> B produceBeanInstance(String name, Class<B> beanType) {
				return produceBeanInstance(beanType);
			}

		}).getBeanInstance();
	}

	private IllegalStateException missing(String reason) {
		return new IllegalStateException("Cannot give " + this.entityName + " a @UidId: " + reason + ". Run Hibernate "
				+ "inside a Spring application with a UidGenerator bean (the uid starter provides one), or set the "
				+ "ID yourself.");
	}

	@Override
	public EnumSet<EventType> getEventTypes() {
		return EventTypeSets.INSERT_ONLY;
	}

}
