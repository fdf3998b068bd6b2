package io.github.uidgen.shardingsphere.app;

import java.util.List;

import com.baomidou.mybatisplus.core.mapper.BaseMapper;
import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;

/** The MyBatis-Plus mapper of {@link Order}, and a range query by ID. */
@Mapper
public interface OrderMapper extends BaseMapper<Order> {

	@Select("SELECT id FROM t_order WHERE id BETWEEN #{from} AND #{to}")
	List<Long> idsBetween(@Param("from") long from, @Param("to") long to);

}
