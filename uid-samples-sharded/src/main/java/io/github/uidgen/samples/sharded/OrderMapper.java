package io.github.uidgen.samples.sharded;

import java.util.List;

import com.baomidou.mybatisplus.core.mapper.BaseMapper;
import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;

/** Orders through MyBatis-Plus, and a range of them by ID, which ShardingSphere sends only to their years' tables. */
@Mapper
public interface OrderMapper extends BaseMapper<Order> {

	@Select("SELECT id, item FROM t_order WHERE id BETWEEN #{from} AND #{to} ORDER BY id")
	List<Order> between(@Param("from") long from, @Param("to") long to);

}
