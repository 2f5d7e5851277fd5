#include "bindings/crawler_api.h"

#include "common/size_optimized.h"
#include "crawler/link_contact.h"

ROVERLAB_SIZE_OPTIMIZED_BEGIN

namespace roverlab {

val crawlerLinkContactJs(val params) {
  std::vector<Issue> issues;
  if (params.isUndefined() || params.isNull() || params.typeOf().as<std::string>() != "object")
    return issuesResult({{"params", "must be an object {L, phiStart, phiEnd, A, l, b, alpha}"}});
  auto required = [&](const char* name) {
    if (params[name].isUndefined() || params[name].isNull())
      issues.push_back({name, "is required"});
    return numberField(params, name, 0.0, "", issues);
  };
  LinkObstacle in;
  in.length = required("L");
  in.phiStart = required("phiStart");
  in.phiEnd = required("phiEnd");
  in.sideL = required("l");
  in.sideB = required("b");
  in.alpha = required("alpha");
  std::vector<double> a;
  if (numberList(params["A"], "A", a, issues)) {
    if (a.size() != 2)
      issues.push_back({"A", "must be [x, y]"});
    else
      in.a = Vec2(a[0], a[1]);
  }
  if (!issues.empty()) return issuesResult(issues);
  const Expected<LinkContact> r = determineLinkContact(in);
  if (!r) return issuesResult(r.issues());
  const LinkContact& c = r.value();
  val out = val::object();
  out.set("ok", true);
  out.set("mode", c.mode);
  out.set("kind", static_cast<int>(c.kind));
  out.set("kindName", std::string(contactKindName(c.kind)));
  out.set("contact", c.mode < 5);
  out.set("alphaContact", c.alphaContact);
  if (c.mode < 5) {
    out.set("phiContact", c.phiContact);
    out.set("point", vec2ToJs(c.point));
    out.set("pointEnd", vec2ToJs(c.pointEnd));
    out.set("contactDistance", c.contactDistance);
  }
  val corr = val::object();
  corr.set("needed", c.correction.needed);
  if (c.correction.needed) {
    corr.set("endAngle", c.correction.endAngle);
    corr.set("length", c.correction.length);
    corr.set("lift", c.correction.lift);
  }
  out.set("correction", corr);
  return out;
}

}  // namespace roverlab

ROVERLAB_SIZE_OPTIMIZED_END
