package merge
import ("testing";"os";"strings";"strconv";"github.com/ssa-diff/ssa-diff/schema";"sigs.k8s.io/yaml")
func TestZZDbg(t *testing.T){
	b,_:=os.ReadFile("testdata/fuzz/FuzzEngine/"+os.Getenv("C"))
	lines:=strings.Split(string(b),"\n"); s:=strings.TrimSuffix(strings.TrimPrefix(lines[1],"[]byte("),")")
	data,_:=strconv.Unquote(s)
	reg := schema.NewRegistry(); crd,_:=os.ReadFile("../testdata/examples/crd-backup/crd.yaml"); reg.AddCRD("crd.yaml",crd)
	var bases []map[string]interface{}; yaml.Unmarshal([]byte(fuzzBase), &bases)
	g:=&fuzzGen{data:[]byte(data)}; req,how:=g.request(reg,bases); t.Log(how, describe(req))
}
